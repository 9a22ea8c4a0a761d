#!/usr/bin/env bash
# Runs every benchmark of Pigeonhole on this machine and writes benchmarks/RESULTS.md with charts.
#
#   benchmarks/run.sh            the full run: 3 rounds, many connections, the catalog (about 25 minutes on 2 cores)
#   benchmarks/run.sh --quick    2 short rounds, small N, a thin catalog (about 11 minutes on 2 busy cores): a smoke run
#   benchmarks/run.sh --floors   only what each Redis operation costs inside Redis beside its floor (about 3 minutes)
#   benchmarks/run.sh --clients  only the Redis clients compared, 3 alternating rounds (about 2 minutes a client)
#   benchmarks/run.sh --durability  only sends without and with a wait for a replica, 3 alternating rounds (about 1 minute)
#   benchmarks/run.sh [--quick | --floors | --clients | --durability] [--skip-build]
#                     [-- <extra JMH arguments for the catalog, e.g. a regex; with --clients, ClientComparison's options;
#                         with --durability, DurableSends' options>]
#
# Phases: build benchmarks.jar; start a private redis-server and a private 3-master Redis Cluster
# (unless REDIS_URL / REDIS_CLUSTER_NODES are set) and a private PostgreSQL (unless POSTGRES_URL
# is set; without one the PostgreSQL rows are skipped); start one server per store for the
# end-to-end runs; the ratio phase: ROUNDS rounds, each measuring every target's two sides back
# to back (redis-benchmark right before and after the JMH run it is divided into, our pending and
# the book's fetch in one JMH run between two loopback round trips (redis-benchmark -c 1 PING),
# the stores' load, fan-out and HTTP runs in turn), into target/results/rounds/N/; the floors,
# each Redis operation beside the floor of the commands it cannot do without, in 3 rounds on the
# single node alone, into target/results/floors.json; many live connections, N sockets against a
# fresh in-memory server for each N, into target/results/connections-N.json; the catalog, one JMH
# run of every benchmark on every backend, for the tables; the report. --floors runs the build,
# the Redis, the floors and the report only; --clients the build, the Redis, the client comparison
# (dev.pigeonhole.benchmarks.clients.ClientComparison, into target/results/clients/) and the report
# only, in target/results/RESULTS.md; --durability the build, the Redis with a replica of its own, the durable
# sends (dev.pigeonhole.benchmarks.durability.DurableSends, into target/results/durability/) and the report
# only, in target/results/RESULTS.md; the full run runs them after the clients. A phase that fails is reported and skipped, so the
# report still comes out, with "not run" where that phase's numbers would be.
#
# Environment: REDIS_URL (use that Redis instead of starting one: keys get a prefix of this run's
# own), REDIS_CLUSTER_NODES (host:port,... of a cluster to use instead of forming one),
# POSTGRES_URL with POSTGRES_USER and POSTGRES_PASSWORD (use that PostgreSQL: each trial and load
# run gets a bench_* schema of its own), JAVA_HOME, ROUNDS (rounds of the ratio phase), JMH_ARGS
# (appended to the catalog's JMH arguments), LOAD_ARGS (appended to the load generator's),
# JMH_IGNORE_LOCK=1 (run JMH even while another JMH runs here), CLIENTS (the clients --clients
# compares, e.g. JEDIS,LETTUCE,REDISSON,GLIDE; ClientComparison's default without it). The floors load a Functions library
# (pigeonhole_floors) into the Redis and take it away at the end: with REDIS_URL, that Redis must run
# no other scripts meanwhile, or the floors stop rather than count them as theirs.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

QUICK=0
FLOORS_ONLY=0
CLIENTS_ONLY=0
DURABILITY_ONLY=0
BUILD=1
EXTRA_JMH=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --floors) FLOORS_ONLY=1 ;;
    --clients) CLIENTS_ONLY=1 ;;
    --durability) DURABILITY_ONLY=1 ;;
    --skip-build) BUILD=0 ;;
    --) shift; EXTRA_JMH=("$@"); break ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$ROOT/benchmarks/run.sh"; exit 0 ;;
    *) echo "run.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

[ $((QUICK + FLOORS_ONLY + CLIENTS_ONLY + DURABILITY_ONLY)) -gt 1 ] \
  && { echo "run.sh: --quick, --floors, --clients and --durability are different runs; pick one" >&2; exit 2; }
START=$SECONDS
MODE=full
[ $QUICK = 1 ] && MODE=quick
[ $FLOORS_ONLY = 1 ] && MODE=floors
[ $CLIENTS_ONLY = 1 ] && MODE=clients
[ $DURABILITY_ONLY = 1 ] && MODE=durability
# The runs of one part alone need the single node and nothing else (the durable sends its replica too).
PART_ONLY=$((FLOORS_ONLY + CLIENTS_ONLY + DURABILITY_ONLY))
OUT=$ROOT/benchmarks/target/results
JAR=$ROOT/benchmarks/target/benchmarks.jar
FAILED=()

say() { printf '[run.sh %s +%4ds] %s\n' "$MODE" $((SECONDS - START)) "$*"; }
phase() { echo; say "== $*"; }
failed() { FAILED+=("$1"); say "!! $1 failed; going on without it"; }

# ---------------------------------------------------------------- processes we own, stopped by PID

REDIS_PID=""
REPLICA_PID=""
CLUSTER_PIDS=()
POSTGRES_PID=""
SERVER_PIDS=()
CHILD_PID=""

stop_pid() { # $1 = PID, $2 = the polite signal (TERM); then insists: a stuck server must not outlive the run
  local pid=$1 signal=${2:-TERM} i
  [ -n "$pid" ] || return 0
  kill -0 "$pid" 2>/dev/null || return 0
  kill -"$signal" "$pid" 2>/dev/null || true
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || { wait "$pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
}

cleanup() {
  local pid
  stop_pid "$CHILD_PID"; CHILD_PID=""
  for pid in "${SERVER_PIDS[@]}"; do stop_pid "$pid"; done
  SERVER_PIDS=()
  stop_pid "$REPLICA_PID"; REPLICA_PID=""
  stop_pid "$REDIS_PID"; REDIS_PID=""
  for pid in "${CLUSTER_PIDS[@]}"; do stop_pid "$pid"; done
  CLUSTER_PIDS=()
  # SIGINT is PostgreSQL's fast shutdown: it ends the sessions instead of waiting for them.
  stop_pid "$POSTGRES_PID" INT; POSTGRES_PID=""
}
trap cleanup EXIT
trap 'echo; say "interrupted"; exit 130' INT TERM

# Runs a command with a time limit, its output to a log, the lines matching a pattern shown as
# progress. In the background and waited for by PID, so an interrupted run can stop it (timeout
# passes the signal on to the command's whole process group, JMH's forks included).
bounded() { # $1 = seconds, $2 = log file, $3 = progress pattern (grep -E), then the command
  local limit=$1 log=$2 pattern=$3 status=0
  shift 3
  timeout --kill-after=20 "$limit" "$@" > "$log" 2>&1 &
  CHILD_PID=$!
  # The progress watcher runs in the background too: the shell runs a trap (Ctrl-C) at once while
  # in the wait builtin, but only after a foreground pipeline ends. tail ends with the command.
  { tail -n +1 -f --pid="$CHILD_PID" "$log" 2>/dev/null | { grep --line-buffered -E "$pattern" || true; } \
    | sed -u 's/^/    /'; } &
  local watcher=$!
  wait "$CHILD_PID" || status=$?
  CHILD_PID=""
  wait "$watcher" 2>/dev/null || true
  if [ $status = 124 ] || [ $status = 137 ]; then
    say "stopped after its limit of ${limit}s"
  fi
  return $status
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

free_port() { # a loopback port nothing listens on; the race with other programs is accepted
  local port i
  # Below Linux's ephemeral range (32768 and up), where an outgoing connection may hold a port
  # that nothing listens on.
  for i in $(seq 1 200); do
    port=$((12000 + RANDOM % 20000))
    port_open "$port" || { echo "$port"; return 0; }
  done
  return 1
}

wait_for_port() { # $1 = port, $2 = PID that must stay alive, $3 = seconds
  local i
  for i in $(seq 1 $(($3 * 10))); do
    port_open "$1" && return 0
    kill -0 "$2" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# ---------------------------------------------------------------- JDK and build

java_major() { "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p' | sed 's/^1\.//'; }

if [ -z "${JAVA_HOME:-}" ]; then
  JAVA_HOME=$(./pigeonhole jdk) || { echo "run.sh: no JDK 21 or newer found" >&2; exit 1; }
fi
export JAVA_HOME
JAVA=$JAVA_HOME/bin/java
# Maven still uses sun.misc.Unsafe; JDK 23+ warns on every run unless told this is known (as ./pigeonhole does).
if [ "$(java_major "$JAVA_HOME")" -ge 23 ]; then
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi

machine_load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

say "machine load (1, 5, 15 min): $(machine_load)"
phase "build (JDK $(java_major "$JAVA_HOME") at $JAVA_HOME)"
if [ $BUILD = 1 ]; then
  ./mvnw -q -B -DskipTests package -pl benchmarks -am
else
  say "skipped (--skip-build)"
fi
[ -f "$JAR" ] || { echo "run.sh: $JAR is missing; build it or drop --skip-build" >&2; exit 1; }
rm -rf "$OUT"
mkdir -p "$OUT"
say "jar: $JAR; raw results in $OUT"

# ---------------------------------------------------------------- Redis

RUN_PREFIX="bench-run-$$-$RANDOM:"
OWN_REDIS=0
if [ -n "${REDIS_URL:-}" ]; then
  phase "Redis: using REDIS_URL=$REDIS_URL"
else
  phase "Redis: starting a private redis-server"
  command -v redis-server >/dev/null || { echo "run.sh: redis-server not found (or set REDIS_URL)" >&2; exit 1; }
  # Another program may take the free port first: then redis-server cannot bind, and another is tried.
  for attempt in 1 2 3; do
    REDIS_PORT=$(free_port)
    redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
      --dir "$OUT" --logfile "$OUT/redis.log" &
    REDIS_PID=$!
    wait_for_port "$REDIS_PORT" "$REDIS_PID" 10 && break
    stop_pid "$REDIS_PID"; REDIS_PID=""
    grep -q 'already in use' "$OUT/redis.log" || break
  done
  [ -n "$REDIS_PID" ] || { echo "run.sh: redis-server did not start (see $OUT/redis.log)" >&2; exit 1; }
  export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
  OWN_REDIS=1
  say "redis-server PID $REDIS_PID on $REDIS_URL"
fi
rcli() { redis-cli -u "$REDIS_URL" "$@"; }
REDIS_VERSION=$(rcli INFO server 2>/dev/null | tr -d '\r' | sed -n 's/^redis_version://p' || true)
say "Redis version: ${REDIS_VERSION:-unknown}"

# ---------------------------------------------------------------- Redis Cluster: 3 masters, formed here

# As the Redis adapter's test fixture forms its cluster: three cluster-enabled servers, slots
# assigned directly (CLUSTER ADDSLOTSRANGE) with distinct config epochs, every pair introduced
# (CLUSTER MEET), then waited for until every node is ok and maps the slots as the others do.
CLUSTER_TEXT=""
cluster_port() { # a loopback port below the ephemeral range whose cluster bus port (+10000) is free too
  local port i
  for i in $(seq 1 200); do
    port=$((12000 + RANDOM % 10000))
    port_open "$port" || port_open $((port + 10000)) || { echo "$port"; return 0; }
  done
  return 1
}

cluster_view() { # $1 = port: the slot map as this node sees it, one "address slots" per master, sorted
  redis-cli -h 127.0.0.1 -p "$1" CLUSTER NODES | tr -d '\r' \
    | awk '$3 ~ /master/ { line = $2; sub(/@.*/, "", line); for (i = 9; i <= NF; i++) line = line " " $i; print line }' \
    | sort
}

cluster_agreed() { # every node ok, knowing 3 nodes with every slot, all links up, and one slot map
  local port info nodes first="" view
  for port in "${CLUSTER_PORTS[@]}"; do
    info=$(redis-cli -h 127.0.0.1 -p "$port" CLUSTER INFO 2>/dev/null | tr -d '\r') || return 1
    grep -q '^cluster_state:ok' <<<"$info" && grep -q '^cluster_known_nodes:3$' <<<"$info" \
      && grep -q '^cluster_slots_ok:16384$' <<<"$info" || return 1
    nodes=$(redis-cli -h 127.0.0.1 -p "$port" CLUSTER NODES 2>/dev/null | tr -d '\r') || return 1
    grep -qE 'handshake|fail|disconnected' <<<"$nodes" && return 1
    view=$(cluster_view "$port")
    [ "$(wc -l <<<"$view")" = 3 ] || return 1
    if [ -z "$first" ]; then first=$view; elif [ "$view" != "$first" ]; then return 1; fi
  done
  return 0
}

start_cluster() {
  local i port dir first last other
  dir=$OUT/cluster
  mkdir -p "$dir"
  CLUSTER_PORTS=()
  for i in 0 1 2; do
    port=$(cluster_port) || { say "no free port pair for a cluster node"; return 1; }
    redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
      --cluster-enabled yes --cluster-config-file "$dir/nodes-$port.conf" --cluster-node-timeout 5000 \
      --dir "$dir" --logfile "$dir/redis-$port.log" &
    CLUSTER_PIDS+=($!)
    CLUSTER_PORTS+=("$port")
    wait_for_port "$port" "$!" 10 || { say "cluster node on $port did not start (see $dir/redis-$port.log)"; return 1; }
  done
  for i in 0 1 2; do
    port=${CLUSTER_PORTS[$i]}
    first=$((16384 * i / 3)); last=$((16384 * (i + 1) / 3 - 1))
    redis-cli -h 127.0.0.1 -p "$port" CLUSTER SET-CONFIG-EPOCH $((i + 1)) >/dev/null
    redis-cli -h 127.0.0.1 -p "$port" CLUSTER ADDSLOTSRANGE "$first" "$last" >/dev/null
  done
  for i in 0 1; do
    for other in "${CLUSTER_PORTS[@]:$((i + 1))}"; do
      redis-cli -h 127.0.0.1 -p "${CLUSTER_PORTS[$i]}" CLUSTER MEET 127.0.0.1 "$other" >/dev/null
    done
  done
  for i in $(seq 1 300); do
    if cluster_agreed; then
      export REDIS_CLUSTER_NODES
      REDIS_CLUSTER_NODES=$(printf '127.0.0.1:%s,' "${CLUSTER_PORTS[@]}"); REDIS_CLUSTER_NODES=${REDIS_CLUSTER_NODES%,}
      say "cluster of 3 masters (PIDs ${CLUSTER_PIDS[*]}) on $REDIS_CLUSTER_NODES, ok after $((i / 10)).$((i % 10)) s"
      return 0
    fi
    sleep 0.1
  done
  say "the cluster did not reach cluster_state:ok with one slot map within 30 s"
  return 1
}

HAVE_CLUSTER=0
if [ $PART_ONLY = 1 ]; then
  : # the floors and the clients run on the single node alone
elif [ -n "${REDIS_CLUSTER_NODES:-}" ]; then
  phase "Redis Cluster: using REDIS_CLUSTER_NODES=$REDIS_CLUSTER_NODES"
  HAVE_CLUSTER=1
  CLUSTER_TEXT="given: $REDIS_CLUSTER_NODES"
else
  phase "Redis Cluster: forming a private cluster of 3 masters"
  if start_cluster; then
    HAVE_CLUSTER=1
    CLUSTER_TEXT="3 masters, no replicas, on 127.0.0.1 (formed by run.sh)"
  else
    for pid in "${CLUSTER_PIDS[@]}"; do stop_pid "$pid"; done
    CLUSTER_PIDS=()
    failed "Redis Cluster"
    say "no cluster: its rows are skipped"
  fi
fi

# ---------------------------------------------------------------- PostgreSQL

POSTGRES_VERSION=""
HAVE_POSTGRES=0
# PostgreSQL refuses to run as root: there both binaries run as the postgres system user (which
# Debian's package creates). setpriv execs rather than forks, so $! is the server's own PID.
AS_POSTGRES=()
[ "$(id -u)" = 0 ] && AS_POSTGRES=(setpriv --reuid=postgres --regid=postgres --clear-groups --)

postgres_program() { # $1 = program: from the PATH, else the newest of /usr/lib/postgresql/<version>/bin
  local found
  found=$(command -v "$1" 2>/dev/null) && { echo "$found"; return 0; }
  found=$(ls -d /usr/lib/postgresql/*/bin/"$1" 2>/dev/null | sort -V | tail -1)
  [ -n "$found" ] && [ -x "$found" ] && echo "$found"
}

postgres_ready() { # $1 = port, $2 = PID that must stay alive, $3 = seconds
  local isready i
  isready=$(postgres_program pg_isready || true)
  for i in $(seq 1 $(($3 * 10))); do
    kill -0 "$2" 2>/dev/null || return 1
    if [ -n "$isready" ]; then
      "$isready" -q -h 127.0.0.1 -p "$1" -d postgres -U pigeonhole -t 1 && return 0
    else
      port_open "$1" && return 0
    fi
    sleep 0.1
  done
  return 1
}

start_postgres() {
  local initdb postgres dir port attempt log
  initdb=$(postgres_program initdb) || { say "initdb not found on the PATH nor in /usr/lib/postgresql/*/bin"; return 1; }
  # The server of the same installation as initdb: a cluster is only readable by its own version.
  postgres=$(dirname "$initdb")/postgres
  [ -x "$postgres" ] || { say "no postgres beside $initdb"; return 1; }
  dir=$OUT/postgres
  mkdir -p "$dir"
  if [ ${#AS_POSTGRES[@]} -gt 0 ]; then
    chown postgres:postgres "$dir" 2>/dev/null \
      || { say "running as root, PostgreSQL must run as the postgres system user, and $dir cannot be given to it"; return 1; }
  fi
  "${AS_POSTGRES[@]}" "$initdb" --pgdata="$dir/data" --auth=trust --username=pigeonhole --encoding=UTF8 --locale=C \
    --no-sync > "$OUT/initdb.log" 2>&1 || { say "initdb failed (see $OUT/initdb.log)"; return 1; }
  # Another program may take the free port first: then postgres cannot bind, and another is tried.
  for attempt in 1 2 3; do
    port=$(free_port)
    log=$OUT/postgres.log
    "${AS_POSTGRES[@]}" "$postgres" -D "$dir/data" -p "$port" -c listen_addresses=127.0.0.1 \
      -c unix_socket_directories="$dir" -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
      -c max_connections=200 > "$log" 2>&1 &
    POSTGRES_PID=$!
    if postgres_ready "$port" "$POSTGRES_PID" 30; then
      export POSTGRES_URL="jdbc:postgresql://127.0.0.1:$port/postgres" POSTGRES_USER=pigeonhole
      POSTGRES_VERSION=$("$postgres" --version | sed 's/^postgres (PostgreSQL) //')
      say "postgres PID $POSTGRES_PID on $POSTGRES_URL (PostgreSQL $POSTGRES_VERSION)"
      return 0
    fi
    stop_pid "$POSTGRES_PID" INT; POSTGRES_PID=""
    grep -qE 'could not bind|already in use' "$log" || break
  done
  say "postgres did not start (see $log)"
  return 1
}

if [ $PART_ONLY = 1 ]; then
  : # the floors and the clients measure Redis alone
elif [ -n "${POSTGRES_URL:-}" ]; then
  phase "PostgreSQL: using POSTGRES_URL=${POSTGRES_URL%%\?*}"
  export POSTGRES_USER=${POSTGRES_USER:-pigeonhole}
  HAVE_POSTGRES=1
else
  phase "PostgreSQL: starting a private postgres"
  if start_postgres; then
    HAVE_POSTGRES=1
  else
    say "no PostgreSQL (set POSTGRES_URL, or install PostgreSQL's server): its rows are skipped"
  fi
fi

# ---------------------------------------------------------------- settings of the ratio phase and the catalog

if [ $QUICK = 1 ]; then
  ROUNDS=${ROUNDS:-2}
  # One short iteration per trial: enough to show each ratio's order of magnitude, not to judge it.
  ROUND_JMH=(-f 1 -wi 1 -w 500ms -i 1 -r 1s -bm thrpt)
  RB_SENDS=(10000 30000 100000)
  # The servers stay up through the rounds; the first run of each warms the JIT for several
  # seconds at a gentle rate, so that even the quick figures are of a warm server.
  LOAD_FIRST_WARMUP=8; LOAD_WARMUP=2; LOAD_SECONDS=4
  LOAD_OPTS=(--users 40 --chats 10 --rate 100)
  HTTP_OPTS=(--callers 8 --warmup 1 --duration 3)
  # The fan-out scenario: p99 needs a few hundred messages, so 3 s at its 100 a second.
  FANOUT_FIRST_WARMUP=4; FANOUT_WARMUP=2; FANOUT_SECONDS=3
  # Smaller N than the full run's 1 000 and 5 000, which the report says: a check that it runs.
  CONN_NS=(300 1000); CONN_LIMITS=(60 90); CONN_OPTS=(--warmup-sockets 50 --rounds 3)
  # Throughput only, K and N at the ends (K = 100 is the target's); what the rounds measured
  # (8 threads, virtual threads, the book's send and fetch) is left to them: the tables take the
  # rounds' median where the catalog has no figure.
  CATALOG_JMH=(-f 1 -wi 1 -w 300ms -i 1 -r 700ms -bm thrpt -p chats=1,100 -p subscribers=1,1000
               '^(?!.*(SendBenchmark\.send8|SendBenchmark\.sendVirtual64|BookSendBenchmark|BookFetchBenchmark)).*')
  ROUND_LIMIT=300; CATALOG_LIMIT=600
  FLOORS_CALLS=3000; FLOORS_LIMIT=240
else
  ROUNDS=${ROUNDS:-3}
  # Per trial about 8 s of warming and measuring plus 2 to 3 s of fork and set-up; 16 trials a
  # round. Two warm-up iterations: Lettuce's one caller takes several seconds to reach its pace
  # (2.8k, then 6.2k, then 8.6k sends a second over its first three 2-second iterations here).
  ROUND_JMH=(-f 1 -wi 2 -w 2s -i 2 -r 2s -bm thrpt)
  RB_SENDS=(40000 150000 500000)
  LOAD_FIRST_WARMUP=15; LOAD_WARMUP=5; LOAD_SECONDS=10
  LOAD_OPTS=(--users 200 --chats 20 --rate 400)
  HTTP_OPTS=(--callers 16 --warmup 2 --duration 8)
  # 600 messages a round: the p99 is the sixth slowest, and the three stores add about a minute.
  FANOUT_FIRST_WARMUP=6; FANOUT_WARMUP=3; FANOUT_SECONDS=6
  # Each N's whole run (sign-in, warm-up, opening, fan-out) is cut at its limit, and reports what
  # it has: at the 15 connects a second of before the batched presence, 5 000 would take 6 minutes.
  CONN_NS=(1000 5000); CONN_LIMITS=(90 180); CONN_OPTS=(--warmup-sockets 200 --rounds 5)
  # Every benchmark on every backend, throughput only, but for what the rounds measure already
  # (the tables take the rounds' median there): about 60 trials of 3 s plus set-up.
  CATALOG_JMH=(-f 1 -wi 1 -w 1s -i 2 -r 1s -bm thrpt
               '^(?!.*(SendBenchmark\.sendVirtual64|BookSendBenchmark|ManyCallersBenchmark)).*')
  ROUND_LIMIT=900; CATALOG_LIMIT=3600
  # 10 000 calls of each operation and of its floor per round (a hundredth of that many K = 100
  # operations), and capacity runs of about half a second of Redis time each: 2 to 3 minutes.
  FLOORS_CALLS=10000; FLOORS_LIMIT=420
fi
# shellcheck disable=SC2206 # LOAD_ARGS is split on purpose: it is a list of arguments
LOAD_OPTS+=(${LOAD_ARGS:-})

SINGLE_BACKENDS=IN_MEMORY,JEDIS,LETTUCE
[ $HAVE_POSTGRES = 1 ] && SINGLE_BACKENDS+=,POSTGRES
CLUSTER_BACKENDS=""
[ $HAVE_CLUSTER = 1 ] && CLUSTER_BACKENDS=,JEDIS_CLUSTER,LETTUCE_CLUSTER
STORES=(memory jedis lettuce)
[ $HAVE_POSTGRES = 1 ] && STORES+=(postgres)
FANOUT_STORES=(memory jedis lettuce)

# JMH refuses to start while another JMH holds /tmp/jmh.lock, since two runs skew each other;
# JMH_IGNORE_LOCK=1 runs anyway, for a machine shared on purpose.
JMH_JVM=()
[ "${JMH_IGNORE_LOCK:-0}" = 1 ] && JMH_JVM+=(-Djmh.ignoreLock=true)
HAVE_MANY_CALLERS=0
"$JAVA" -jar "$JAR" -l 2>/dev/null | grep -q 'ManyCallersBenchmark' && HAVE_MANY_CALLERS=1

NOTES=$OUT/notes.md
note() { printf -- '- %s\n' "$*" >> "$NOTES"; }
: > "$NOTES"
note "Machine load (1, 5, 15 min) at the start: $(machine_load)."

jmh() { # $1 = results file, $2 = limit in seconds, then JMH's arguments
  local json=$1 limit=$2
  shift 2
  bounded "$limit" "${json%.json}.log" '^# (Benchmark|Parameters):|^# Run progress|ERROR|Exception' \
    "$JAVA" "${JMH_JVM[@]}" -jar "$JAR" "$@" -rf json -rff "$json" -prof gc || true
  if [ -s "$json" ]; then return 0; fi
  grep -q 'Unable to acquire the JMH lock' "${json%.json}.log" 2>/dev/null \
    && say "another JMH is running here; wait for it, or set JMH_IGNORE_LOCK=1"
  return 1
}

# The send script's line for redis-benchmark, once fcall_prepare (below) has written it; the
# report takes its keys away.
FCALL_ARGS=()

# ---------------------------------------------------------------- the floors: each Redis operation beside its floor

floors_run() { # on the single node, with nothing else running scripts on it
  local status=0
  phase "floors: each Redis operation beside its floor, ${FLOORS_CALLS} calls, 3 rounds"
  command -v redis-benchmark >/dev/null || { say "redis-benchmark not found"; failed "floors"; return 0; }
  say "machine load (1, 5, 15 min): $(machine_load)"
  local floors_start=$SECONDS
  bounded "$FLOORS_LIMIT" "$OUT/floors.log" '^\[floors\]|Exception' \
    "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.floors.FloorsBenchmark --out "$OUT/floors.json" \
      --rounds 3 --calls "$FLOORS_CALLS" || status=$?
  [ $status = 0 ] && [ -s "$OUT/floors.json" ] || failed "floors (see $OUT/floors.log)"
  note "Floors: 3 rounds of ${FLOORS_CALLS} calls per operation on the single node$([ "$FLOORS_CALLS" -lt 10000 ] \
    && echo " (fewer than the full run's 10 000)"); the phase took $((SECONDS - floors_start)) s;" \
    "machine load after it: $(machine_load)."
}

# ---------------------------------------------------------------- report

report_and_finish() {
  phase "report"
  [ ${#FCALL_ARGS[@]} -gt 0 ] && rcli DEL "${FCALL_KEYS[@]}" >/dev/null || true
  if [ $OWN_REDIS = 0 ]; then
    # Someone else's Redis: take away what the load runs left under this run's prefix.
    rcli --scan --pattern "${RUN_PREFIX}*" | xargs -r -n 500 redis-cli -u "$REDIS_URL" UNLINK >/dev/null || true
  fi
  cleanup
  # A quick look, or the floors or the clients alone, must not replace the full run the repository publishes: they
  # report under target/.
  if [ $QUICK = 1 ] || [ $PART_ONLY = 1 ]; then
    REPORT_DIR="$OUT"
  else
    REPORT_DIR="$ROOT/benchmarks"
  fi
  "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.report.ResultsReport --results "$OUT" --notes "$NOTES" \
    --out "$REPORT_DIR/RESULTS.md" --charts "$REPORT_DIR/charts" --mode "$MODE" \
    --duration-seconds $((SECONDS - START)) --redis-version "${REDIS_VERSION:-}" --redis-cluster "$CLUSTER_TEXT" \
    --postgres-version "$POSTGRES_VERSION" || failed "report"

  echo
  say "machine load (1, 5, 15 min): $(machine_load)"
  say "done: $MODE run took $(((SECONDS - START) / 60))m $(((SECONDS - START) % 60))s"
  say "wrote ${REPORT_DIR#"$ROOT"/}/RESULTS.md and its charts; raw results in $OUT"
  if [ ${#FAILED[@]} -gt 0 ]; then
    say "phases that failed: ${FAILED[*]}"
    exit 1
  fi
}

if [ $FLOORS_ONLY = 1 ]; then
  floors_run
  report_and_finish
  exit 0
fi

# ---------------------------------------------------------------- the clients compared, on the single node

clients_run() {
  local status=0 clients_start=$SECONDS
  local clients_opts=(--out "$OUT/clients")
  [ -n "${CLIENTS:-}" ] && clients_opts+=(--clients "$CLIENTS")
  phase "clients compared: ${CLIENTS:-the default clients}, ${EXTRA_JMH[*]:-default options}"
  say "machine load (1, 5, 15 min): $(machine_load)"
  # Each client takes about 2 minutes over the 3 rounds and its allocation fork; the limit leaves room for 4 and a slow machine.
  bounded 1200 "$OUT/clients.log" '^\[clients\]|Exception|^# (Benchmark|Parameters):' \
    "$JAVA" "${JMH_JVM[@]}" -cp "$JAR" dev.pigeonhole.benchmarks.clients.ClientComparison "${clients_opts[@]}" \
      "${EXTRA_JMH[@]}" || status=$?
  [ $status = 0 ] && [ -s "$OUT/clients/measures.csv" ] || failed "clients (see $OUT/clients.log)"
  local command="ClientComparison ${clients_opts[*]#"$ROOT"/} ${EXTRA_JMH[*]}"
  note "Clients compared: \`${command% }\` on the single node; the phase took" \
    "$((SECONDS - clients_start)) s; machine load after it: $(machine_load)."
}

if [ $CLIENTS_ONLY = 1 ]; then
  clients_run
  report_and_finish
  exit 0
fi

# ---------------------------------------------------------------- durable sends: a replica of the single node

start_replica() { # a replica of our own redis-server on a free port, awaited until its link is up and synced
  local port i dir=$OUT/replica
  mkdir -p "$dir"
  port=$(free_port) || return 1
  redis-server --port "$port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
    --replicaof 127.0.0.1 "$REDIS_PORT" --dir "$dir" --logfile "$dir/redis.log" &
  REPLICA_PID=$!
  for i in $(seq 1 300); do
    redis-cli -p "$port" INFO replication 2>/dev/null | tr -d '\r' | grep -q '^master_link_status:up$' \
      && { say "replica PID $REPLICA_PID on 127.0.0.1:$port, following after $((i / 10)).$((i % 10)) s"; return 0; }
    kill -0 "$REPLICA_PID" 2>/dev/null || break
    sleep 0.1
  done
  say "the replica did not follow the primary within 30 s (see $dir/redis.log)"
  return 1
}

durability_run() { # the send port without and with a wait for one replica, which it starts and stops here
  local status=0 durability_start=$SECONDS
  local durability_opts=(--out "$OUT/durability")
  [ -n "${CLIENTS:-}" ] && durability_opts+=(--clients "$CLIENTS")
  # The options after -- are this tool's only when it runs alone; in the full run they are the catalog's.
  [ $DURABILITY_ONLY = 1 ] && durability_opts+=("${EXTRA_JMH[@]}")
  phase "durable sends, one replica: DurableSends ${durability_opts[*]#"$ROOT"/}"
  if [ $OWN_REDIS = 1 ]; then
    start_replica || { failed "durable sends (no replica)"; stop_pid "$REPLICA_PID"; REPLICA_PID=""; return 0; }
  else
    say "REDIS_URL is not ours: its own replicas are used, and the tool stops if it has none"
  fi
  say "machine load (1, 5, 15 min): $(machine_load)"
  bounded 600 "$OUT/durability.log" '^\[durability\]|Exception' \
    "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.durability.DurableSends "${durability_opts[@]}" || status=$?
  stop_pid "$REPLICA_PID"; REPLICA_PID=""
  [ $status = 0 ] && [ -s "$OUT/durability/measures.csv" ] || failed "durable sends (see $OUT/durability.log)"
  note "Durable sends: \`DurableSends ${durability_opts[*]#"$ROOT"/}\` on the single node and a replica of it; the" \
    "phase took $((SECONDS - durability_start)) s; machine load after it: $(machine_load)."
}

if [ $DURABILITY_ONLY = 1 ]; then
  durability_run
  report_and_finish
  exit 0
fi

# ---------------------------------------------------------------- redis-benchmark: the send function alone

FCALL_ARGS=()
fcall_prepare() {
  local send loaded chat base
  command -v redis-benchmark >/dev/null || { say "redis-benchmark not found"; return 1; }
  # The adapter's library as the adapter loads it, and its send function's name in this version.
  loaded=$("$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.baseline.LibraryText | rcli -x FUNCTION LOAD REPLACE | tr -d '\r')
  [ "$loaded" = pigeonhole ] || { say "FUNCTION LOAD said: $loaded"; return 1; }
  send=$("$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.baseline.LibraryText chat_send)
  chat=rb
  base="${RUN_PREFIX}chat:{$chat}:"
  # A chat the sender belongs to, as chat_open leaves it: members with cursors and join points, id
  # counter at 0.
  FCALL_KEYS=("${base}members" "${base}ids" "${base}msgs" "${base}sent" "${base}sent-windows" "${base}joined")
  rcli DEL "${FCALL_KEYS[@]}" >/dev/null
  rcli ZADD "${base}members" 0 alice 0 bob >/dev/null
  rcli ZADD "${base}joined" 0 alice 0 bob >/dev/null
  rcli SET "${base}ids" 0 >/dev/null
  # The arguments as ChatScripts.Posting lays them out: chat, sender, tail (the message JSON after
  # the id), now, no idempotency key, key window, no body digest, max retained, max members, no
  # rate limit (burst 1, interval 0: the store is measured, not the limiter), publish mode P,
  # channel, and the announcement as the live event codec writes it, before and after the id.
  local tail='"ts":1767225600.000,"sender":"alice","message":"hello from redis-benchmark"}'
  FCALL_ARGS=(FCALL "$send" 9 "${base}members" "${base}ids" "${base}msgs" "${base}sent" "${base}sent-windows"
              "${base}joined" "${base}open" "${base}buckets" "${base}generation"
              "$chat" alice "$tail" "$(date +%s000)" "" 86400000 "" 10000 1000 1 0 P "${RUN_PREFIX}chat:{$chat}"
              "{\"type\":\"message\",\"chat\":\"$chat\",\"message\":{\"id\":"
              ',"at":1767225600000,"sender":"alice","body":"hello from redis-benchmark"}}')
  local check
  check=$(rcli "${FCALL_ARGS[@]}" | head -1 | tr -d '\r')
  [ "$check" = SENT ] || { say "the send function answered '$check' instead of SENT"; FCALL_ARGS=(); return 1; }
}

fcall_run() { # $1 = output file, then redis-benchmark's load options (-c N -n N [-P N])
  local out=$1
  shift
  [ ${#FCALL_ARGS[@]} -gt 0 ] || return 0
  redis-benchmark -u "$REDIS_URL" "$@" --csv "${FCALL_ARGS[@]}" > "$out" 2>"$out.err" || { failed "redis-benchmark $*"; return 0; }
  say "redis-benchmark $*: $(tail -1 "$out" | awk -F'","' '{print $(NF-6)}') sends/s"
}

# The loopback round trip, for the report's model of the pending target: one client waits for
# each PING's answer before the next, so 1 / requests per second is one round trip as a caller
# sees it. Its own kind of file (ping-WHEN.csv): the report shows before and after apart.
round_trip_run() { # $1 = output file
  local out=$1
  command -v redis-benchmark >/dev/null || return 0
  redis-benchmark -u "$REDIS_URL" -c 1 -n 20000 --csv PING > "$out" 2>"$out.err" || { failed "redis-benchmark PING"; return 0; }
  say "loopback round trip: $(tail -1 "$out" | awk -F'","' '{ if ($2 > 0) printf "%.1f", 1e6 / $2 }') µs (redis-benchmark -c 1 PING)"
}

phase "redis-benchmark: the send function through FCALL"
fcall_prepare || failed "redis-benchmark"

# ---------------------------------------------------------------- the servers of the end-to-end runs

# The server holds one client address to 100 connections at once; the runs here open up to
# 5 000 sockets, and their HTTP calls besides, all from 127.0.0.1.
SERVER_MAX_CONNECTIONS=100000
declare -A SERVER_URL=()
declare -A SERVER_PORT=()
declare -A SERVER_PID_OF=()
start_server() { # $1 = store label, then the store options of the server; waited for by await_servers
  local label=$1 port
  shift
  port=$(free_port)
  # No rate limits: the load measures the store and the server, not the limiter. Anyone may add
  # anyone, as in the book: the members a chat is created with are members, not invitees. Every
  # client here is 127.0.0.1, so the bound on one address's connections is lifted. No access log:
  # a line per request, tens of thousands a second, would measure the log file.
  "$JAVA" -cp "$JAR" dev.pigeonhole.app.Main serve --access-log=false --host 127.0.0.1 --port "$port" --add-policy anyone \
    --max-connections-per-address "$SERVER_MAX_CONNECTIONS" \
    --rate-send none --rate-create none --rate-invite none --rate-deliver none "$@" > "$OUT/server-$label.log" 2>&1 &
  SERVER_PIDS+=($!)
  SERVER_PID_OF[$label]=$!
  SERVER_PORT[$label]=$port
}

await_servers() { # the servers start side by side: on a busy machine each takes seconds
  local label
  for label in "${!SERVER_PORT[@]}"; do
    if wait_for_port "${SERVER_PORT[$label]}" "${SERVER_PID_OF[$label]}" 90; then
      SERVER_URL[$label]="http://127.0.0.1:${SERVER_PORT[$label]}"
      say "$label server PID ${SERVER_PID_OF[$label]} on ${SERVER_URL[$label]}"
    else
      failed "server: $label (see $OUT/server-$label.log)"
    fi
  done
}

phase "servers for the end-to-end runs, one per store, kept up through the rounds"
start_server memory --store memory
start_server jedis --store redis --redis-client jedis --redis-url "$REDIS_URL" --key-prefix "${RUN_PREFIX}jedis:"
start_server lettuce --store redis --redis-client lettuce --redis-url "$REDIS_URL" --key-prefix "${RUN_PREFIX}lettuce:"
if [ $HAVE_POSTGRES = 1 ]; then
  # A schema of this run's own, which the server migrates at start; the password, if any, as the
  # server reads it (never on its command line).
  PIGEONHOLE_POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-} start_server postgres --store postgres \
    --postgres-url "$POSTGRES_URL" --postgres-user "$POSTGRES_USER" \
    --postgres-schema "bench_load_$(printf '%04x%04x' $RANDOM $RANDOM)"
fi
await_servers

load_run() { # $1 = round folder, $2 = store label, $3 = warm-up seconds
  local dir=$1 label=$2 warmup=$3 status=0
  [ -n "${SERVER_URL[$label]:-}" ] || return 0
  # A generator that hangs must not hold the run past a few times its own duration.
  bounded $((3 * (LOAD_SECONDS + warmup) + 60)) "$dir/load-$label.log" '^(ready|setup failed)|^ *latency p(50|99) ' \
    "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.load.LoadGenerator --url "${SERVER_URL[$label]}" \
      "${LOAD_OPTS[@]}" --duration "$LOAD_SECONDS" --warmup "$warmup" --out "$dir/load-$label.json" --label "$label" \
    || status=$?
  [ $status = 0 ] && [ -s "$dir/load-$label.json" ] || failed "load: $label, round ${dir##*/}"
}

fanout_run() { # $1 = round folder, $2 = store label, $3 = warm-up seconds
  local dir=$1 label=$2 warmup=$3 status=0
  [ -n "${SERVER_URL[$label]:-}" ] || return 0
  # 100 users, a socket each, in one chat at 100 messages a second: the time to the last socket.
  bounded $((3 * (FANOUT_SECONDS + warmup) + 60)) "$dir/fanout-$label.log" '^(ready|setup failed)|^ *latency p(50|99) ' \
    "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.load.LoadGenerator --url "${SERVER_URL[$label]}" \
      --scenario fanout --sockets 100 --rate 100 --duration "$FANOUT_SECONDS" --warmup "$warmup" \
      --out "$dir/fanout-$label.json" --label "$label" \
    || status=$?
  [ $status = 0 ] && [ -s "$dir/fanout-$label.json" ] || failed "fan-out: $label, round ${dir##*/}"
}

http_run() { # $1 = round folder, $2 = store label
  local dir=$1 label=$2
  [ -n "${SERVER_URL[$label]:-}" ] || return 0
  bounded 120 "$dir/http-$label.log" '"(label|sendsPerSecond)"' \
    "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.load.SendRate --url "${SERVER_URL[$label]}" "${HTTP_OPTS[@]}" \
      --out "$dir/http-$label.json" --label "$label" || failed "HTTP send rate: $label, round ${dir##*/}"
}

# ---------------------------------------------------------------- the ratio phase: every target's two sides, back to back

note "Ratio phase: $ROUNDS rounds$([ $QUICK = 1 ] && echo " (quick mode: fewer and shorter than the full run's 3)")." \
  "Each round: redis-benchmark of the send function right before and right after the JMH run it is divided into" \
  "(1 client, ${RB_SENDS[0]} sends, around our sends on 1 thread; 8 clients, ${RB_SENDS[1]} sends, around 8 threads;" \
  "\`-c 50 -P 16\`, ${RB_SENDS[2]} sends, around the many callers), our pending and the book's fetch at K = 100 in one" \
  "JMH run between two loopback round trips (\`redis-benchmark -c 1 -n 20000 PING\`)," \
  "then the load generator, its fan-out scenario and the HTTP send rate against each store's server in turn." \
  "JMH in the rounds:" \
  "\`${ROUND_JMH[*]}\`."
note "Load generator: \`${LOAD_OPTS[*]} --duration $LOAD_SECONDS\`, warm-up ${LOAD_FIRST_WARMUP} s in round 1" \
  "and ${LOAD_WARMUP} s after it (the servers stay up, so the JIT keeps what earlier rounds taught it)." \
  "Fan-out: \`--scenario fanout --sockets 100 --rate 100 --duration $FANOUT_SECONDS\`, after the load runs, on" \
  "${FANOUT_STORES[*]}, warm-up ${FANOUT_FIRST_WARMUP} s in round 1 and ${FANOUT_WARMUP} s after it." \
  "HTTP send rate: \`${HTTP_OPTS[*]}\`."
[ $HAVE_MANY_CALLERS = 1 ] || note "ManyCallersBenchmark is not in this build: its targets are not run."
[ $HAVE_CLUSTER = 1 ] || note "No Redis Cluster: the cluster rows and targets are not run."
say "machine load (1, 5, 15 min): $(machine_load)"
note "Machine load before the rounds: $(machine_load)."
for round in $(seq 1 "$ROUNDS"); do
  phase "ratio round $round of $ROUNDS"
  ROUND_START=$SECONDS
  DIR=$OUT/rounds/$round
  mkdir -p "$DIR"
  fcall_run "$DIR/fcall-c1-before.csv" -c 1 -n "${RB_SENDS[0]}"
  jmh "$DIR/jmh-send1.json" $ROUND_LIMIT "${ROUND_JMH[@]}" -p backend=IN_MEMORY,JEDIS,LETTUCE \
    '\.SendBenchmark\.send$' 'BookSendBenchmark\.send$' || failed "JMH send, 1 thread, round $round"
  fcall_run "$DIR/fcall-c1-after.csv" -c 1 -n "${RB_SENDS[0]}"
  fcall_run "$DIR/fcall-c8-before.csv" -c 8 -n "${RB_SENDS[1]}"
  jmh "$DIR/jmh-send8.json" $ROUND_LIMIT "${ROUND_JMH[@]}" -p backend=JEDIS,LETTUCE \
    '\.SendBenchmark\.send8$' '\.SendBenchmark\.sendVirtual64$' 'BookSendBenchmark\.send8$' \
    || failed "JMH send, 8 threads, round $round"
  fcall_run "$DIR/fcall-c8-after.csv" -c 8 -n "${RB_SENDS[1]}"
  if [ $HAVE_MANY_CALLERS = 1 ]; then
    fcall_run "$DIR/fcall-c50-P16-before.csv" -c 50 -P 16 -n "${RB_SENDS[2]}"
    jmh "$DIR/jmh-many.json" $ROUND_LIMIT "${ROUND_JMH[@]}" -p backend=LETTUCE -p callers=64,256 \
      'ManyCallersBenchmark\.send$' || failed "JMH many callers, round $round"
    fcall_run "$DIR/fcall-c50-P16-after.csv" -c 50 -P 16 -n "${RB_SENDS[2]}"
  fi
  round_trip_run "$DIR/ping-before.csv"
  jmh "$DIR/jmh-pending.json" $ROUND_LIMIT "${ROUND_JMH[@]}" -p chats=100 -p "backend=JEDIS,LETTUCE$CLUSTER_BACKENDS" \
    'PendingBenchmark\.pendingAndAcknowledge$' 'BookFetchBenchmark' || failed "JMH pending, round $round"
  round_trip_run "$DIR/ping-after.csv"
  for store in "${STORES[@]}"; do
    load_run "$DIR" "$store" $([ "$round" = 1 ] && echo $LOAD_FIRST_WARMUP || echo $LOAD_WARMUP)
  done
  # Memory and Redis only: the target is theirs, and PostgreSQL's run would add a minute a round.
  for store in "${FANOUT_STORES[@]}"; do
    fanout_run "$DIR" "$store" $([ "$round" = 1 ] && echo $FANOUT_FIRST_WARMUP || echo $FANOUT_WARMUP)
  done
  for store in "${STORES[@]}"; do
    http_run "$DIR" "$store"
  done
  say "round $round took $((SECONDS - ROUND_START)) s; machine load (1, 5, 15 min): $(machine_load)"
  note "Round $round took $((SECONDS - ROUND_START)) s; machine load after it: $(machine_load)."
done
for pid in "${SERVER_PIDS[@]}"; do stop_pid "$pid"; done
SERVER_PIDS=()

# With the servers stopped: a count of script time must see no script but the floors benchmark's.
floors_run
# Then the clients compared, on the same quiet single node (about 6 minutes for the four).
clients_run
durability_run

# ---------------------------------------------------------------- many live connections: a fresh server per N

# Each side holds a descriptor per socket, and the benchmark needs about N + 300 on each: the soft
# limit is raised for the children where the hard one allows (a JVM raises its own to the hard
# limit anyway, but a shell-started server must not depend on that).
CONN_MAX=0
for n in "${CONN_NS[@]}"; do [ "$n" -gt $CONN_MAX ] && CONN_MAX=$n; done
CONN_FDS=$((CONN_MAX + 500))
fd_soft=$(ulimit -Sn); fd_hard=$(ulimit -Hn)
if [ "$fd_soft" != unlimited ] && [ "$fd_soft" -lt $CONN_FDS ]; then
  if [ "$fd_hard" = unlimited ] || [ "$fd_hard" -ge $CONN_FDS ]; then
    ulimit -Sn $CONN_FDS
  else
    ulimit -Sn "$fd_hard"
    note "Open files: the hard limit ($fd_hard) is below the $CONN_FDS that N = $CONN_MAX needs; that N may stop short."
  fi
fi

connections_run() { # $1 = N, $2 = the whole run's limit in seconds
  local n=$1 limit=$2 port pid members status=0
  port=$(free_port)
  # In memory, rate limits off: the sockets are measured, not a store or the limiter; members,
  # not invitees, in the large chat and the groups; all N sockets from this one address; no access log.
  "$JAVA" -cp "$JAR" dev.pigeonhole.app.Main serve --access-log=false --host 127.0.0.1 --port "$port" --store memory --add-policy anyone \
    --max-connections-per-address "$SERVER_MAX_CONNECTIONS" \
    --rate-send none --rate-create none --rate-invite none --rate-deliver none > "$OUT/server-connections-$n.log" 2>&1 &
  pid=$!
  SERVER_PIDS=("$pid")
  if ! wait_for_port "$port" "$pid" 90; then
    failed "server for connections, N = $n (see $OUT/server-connections-$n.log)"
    stop_pid "$pid"; SERVER_PIDS=()
    return 0
  fi
  say "in-memory server PID $pid on 127.0.0.1:$port, for N = $n"
  # The large chat is 999 members, or all but one of the users when N is smaller.
  members=$((n - 1 < 999 ? n - 1 : 999))
  bounded $((limit + 60)) "$OUT/connections-$n.log" '^(run |warm-up|opening|fan-out|time limit)| open, |failed' \
    "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.load.ConnectionsBenchmark --url "http://127.0.0.1:$port" \
      --sockets "$n" --server-pid "$pid" --chat-members "$members" "${CONN_OPTS[@]}" --time-limit "PT${limit}S" \
      --out "$OUT/connections-$n.json" || status=$?
  stop_pid "$pid"; SERVER_PIDS=()
  [ $status = 0 ] && [ -s "$OUT/connections-$n.json" ] || failed "connections, N = $n (see $OUT/connections-$n.log)"
}

phase "many live connections: N = ${CONN_NS[*]}, a fresh in-memory server each"
say "open files: soft limit $(ulimit -Sn), hard $(ulimit -Hn); N = $CONN_MAX needs about $CONN_FDS"
CONN_START=$SECONDS
for i in "${!CONN_NS[@]}"; do
  connections_run "${CONN_NS[$i]}" "${CONN_LIMITS[$i]}"
done
note "Many live connections: N = ${CONN_NS[*]}$([ $QUICK = 1 ] && echo " (quick mode: the full run's are 1 000 and 5 000)")," \
  "each against a fresh in-memory server, \`${CONN_OPTS[*]}\`, each whole run cut at ${CONN_LIMITS[*]} s;" \
  "open files $(ulimit -Sn). The phase took $((SECONDS - CONN_START)) s."

# ---------------------------------------------------------------- the catalog: every benchmark, for the tables

phase "JMH catalog (-prof gc)"
CATALOG_JMH+=(-p "backend=$SINGLE_BACKENDS$CLUSTER_BACKENDS")
# shellcheck disable=SC2206 # JMH_ARGS is split on purpose: it is a list of arguments
CATALOG_JMH+=(${JMH_ARGS:-} "${EXTRA_JMH[@]}")
note "Catalog: \`${CATALOG_JMH[*]}\`$([ $QUICK = 1 ] && echo "; what the rounds measured and it skips shows the rounds' median")."
say "machine load (1, 5, 15 min): $(machine_load)"
say "java -jar benchmarks.jar ${CATALOG_JMH[*]} -rf json -prof gc  (REDIS_URL=$REDIS_URL)"
CATALOG_START=$SECONDS
if jmh "$OUT/jmh.json" $CATALOG_LIMIT "${CATALOG_JMH[@]}"; then
  say "JMH wrote $OUT/jmh.json"
else
  failed "JMH catalog (see $OUT/jmh.log)"
fi
note "The catalog took $((SECONDS - CATALOG_START)) s; machine load after it: $(machine_load)."

# ---------------------------------------------------------------- report

report_and_finish
