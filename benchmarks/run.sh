#!/usr/bin/env bash
# Runs every benchmark of Pigeonhole on this machine and writes benchmarks/RESULTS.md with charts.
#
#   benchmarks/run.sh            the full run (tens of minutes; states its duration at the end)
#   benchmarks/run.sh --quick    every phase, very short (under 3 minutes on 2 cores): a smoke run
#   benchmarks/run.sh [--quick] [--skip-build] [-- <extra JMH arguments, e.g. a benchmark regex>]
#
# Phases: build benchmarks.jar; start a private redis-server (unless REDIS_URL is set) and a private
# PostgreSQL (unless POSTGRES_URL is set; without one the PostgreSQL rows are skipped); measure the
# send script with redis-benchmark (this machine's physical limit); JMH; the end-to-end load
# generator against a server per store; the report. A phase that fails is reported and skipped, so
# the report still comes out, with "not run" where that phase's numbers would be.
#
# Environment: REDIS_URL (use that Redis instead of starting one: keys get a prefix of this run's
# own), POSTGRES_URL with POSTGRES_USER and POSTGRES_PASSWORD (use that PostgreSQL: each trial and
# load run gets a bench_* schema of its own), JAVA_HOME, JMH_ARGS (appended to JMH's), LOAD_ARGS
# (appended to the load generator's), JMH_IGNORE_LOCK=1 (run JMH even while another JMH runs here).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

QUICK=0
BUILD=1
EXTRA_JMH=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) QUICK=1 ;;
    --skip-build) BUILD=0 ;;
    --) shift; EXTRA_JMH=("$@"); break ;;
    -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "run.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
  esac
  shift
done

START=$SECONDS
MODE=$([ $QUICK = 1 ] && echo quick || echo full)
OUT=$ROOT/benchmarks/target/results
JAR=$ROOT/benchmarks/target/benchmarks.jar
FAILED=()

say() { printf '[run.sh %s +%4ds] %s\n' "$MODE" $((SECONDS - START)) "$*"; }
phase() { echo; say "== $*"; }
failed() { FAILED+=("$1"); say "!! $1 failed; going on without it"; }

# ---------------------------------------------------------------- processes we own, stopped by PID

REDIS_PID=""
POSTGRES_PID=""
SERVER_PID=""
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
  stop_pid "$CHILD_PID"; CHILD_PID=""
  stop_pid "$SERVER_PID"; SERVER_PID=""
  stop_pid "$REDIS_PID"; REDIS_PID=""
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
  for i in $(seq 1 200); do
    port=$((20000 + RANDOM % 30000))
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
  REDIS_PORT=$(free_port)
  redis-server --port "$REDIS_PORT" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
    --dir "$OUT" --logfile "$OUT/redis.log" &
  REDIS_PID=$!
  wait_for_port "$REDIS_PORT" "$REDIS_PID" 10 || { echo "run.sh: redis-server did not start (see $OUT/redis.log)" >&2; exit 1; }
  export REDIS_URL="redis://127.0.0.1:$REDIS_PORT"
  OWN_REDIS=1
  say "redis-server PID $REDIS_PID on $REDIS_URL"
fi
rcli() { redis-cli -u "$REDIS_URL" "$@"; }
REDIS_VERSION=$(rcli INFO server 2>/dev/null | tr -d '\r' | sed -n 's/^redis_version://p' || true)
say "Redis version: ${REDIS_VERSION:-unknown}"

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

if [ -n "${POSTGRES_URL:-}" ]; then
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

# ---------------------------------------------------------------- redis-benchmark: the send script alone

phase "redis-benchmark: the send script through EVALSHA, 1 and 8 clients"
evalsha_bench() {
  local lua=chat-redis-adapter/src/main/resources/dev/pigeonhole/adapter/redis/lua sha chat base n1 n8
  command -v redis-benchmark >/dev/null || { say "redis-benchmark not found"; return 1; }
  # The adapter loads common.lua, bucket.lua, chat.lua and the script, each followed by a newline
  # but the last (LuaScript.load("chat_send", "bucket", "chat")): the same text, so the same SHA.
  sha=$( { cat "$lua/common.lua"; printf '\n'; cat "$lua/bucket.lua"; printf '\n'; cat "$lua/chat.lua"; printf '\n';
           cat "$lua/chat_send.lua"; } \
         | rcli -x SCRIPT LOAD | tr -d '\r')
  [ ${#sha} = 40 ] || { say "SCRIPT LOAD said: $sha"; return 1; }
  chat=rb
  base="${RUN_PREFIX}chat:{$chat}:"
  # A chat the sender belongs to, as chat_open leaves it: members with cursors and join points, id
  # counter at 0.
  rcli DEL "${base}members" "${base}ids" "${base}msgs" "${base}sent" "${base}sent-windows" "${base}joined" >/dev/null
  rcli ZADD "${base}members" 0 alice 0 bob >/dev/null
  rcli ZADD "${base}joined" 0 alice 0 bob >/dev/null
  rcli SET "${base}ids" 0 >/dev/null
  # ARGV as ChatScripts.Posting lays them out: chat, sender, tail (the message JSON after the id),
  # now, no idempotency key, key window, no body digest, max retained, max members, no rate limit
  # (burst 1, interval 0: the store is measured, not the limiter), publish mode P, channel, event head.
  local tail='"ts":1767225600.000,"sender":"alice","message":"hello from redis-benchmark"}'
  local args=(EVALSHA "$sha" 9 "${base}members" "${base}ids" "${base}msgs" "${base}sent" "${base}sent-windows"
              "${base}joined" "${base}open" "${base}buckets" "${base}generation"
              "$chat" alice "$tail" "$(date +%s000)" "" 86400000 "" 10000 1000 1 0 P "${RUN_PREFIX}chat:{$chat}"
              "{\"type\":\"message\",\"chat\":\"$chat\",\"message\":")
  local check
  check=$(rcli "${args[@]}" | head -1 | tr -d '\r')
  [ "$check" = SENT ] || { say "the send script answered '$check' instead of SENT"; return 1; }
  if [ $QUICK = 1 ]; then n1=20000; n8=50000; else n1=300000; n8=1000000; fi
  say "1 client, $n1 sends"
  redis-benchmark -u "$REDIS_URL" -c 1 -n "$n1" --csv "${args[@]}" > "$OUT/evalsha-c1.csv"
  say "8 clients, $n8 sends"
  redis-benchmark -u "$REDIS_URL" -c 8 -n "$n8" --csv "${args[@]}" > "$OUT/evalsha-c8.csv"
  rcli DEL "${base}members" "${base}ids" "${base}msgs" "${base}sent" "${base}sent-windows" "${base}joined" >/dev/null
  say "EVALSHA 1 client: $(tail -1 "$OUT/evalsha-c1.csv" | awk -F'","' '{print $(NF-6)}') rps;" \
      "8 clients: $(tail -1 "$OUT/evalsha-c8.csv" | awk -F'","' '{print $(NF-6)}') rps"
}
evalsha_bench || failed "redis-benchmark"

# ---------------------------------------------------------------- JMH

phase "JMH (-prof gc)"
if [ $QUICK = 1 ]; then
  # Throughput only, one fork, one short warm-up and measurement; K and N only at the ends
  # (K = 100 is the target's), so the whole run stays under three minutes on two cores.
  JMH_OPTS=(-f 1 -wi 1 -w 300ms -i 1 -r 700ms -bm thrpt -p chats=1,100 -p subscribers=1,1000)
  JMH_LIMIT=600
else
  # Sized for a 2-core machine: about 25 minutes for every benchmark in both modes.
  JMH_OPTS=(-f 1 -wi 2 -w 2s -i 3 -r 3s)
  JMH_LIMIT=21600
fi
# Without PostgreSQL its trials would only fail, one by one: run the other backends alone. The
# option comes before the caller's, so that a backend asked for on the command line still wins.
[ $HAVE_POSTGRES = 1 ] || JMH_OPTS+=(-p backend=IN_MEMORY,JEDIS,LETTUCE)
# shellcheck disable=SC2206 # JMH_ARGS is split on purpose: it is a list of arguments
JMH_OPTS+=(${JMH_ARGS:-} "${EXTRA_JMH[@]}")
# JMH refuses to start while another JMH holds /tmp/jmh.lock, since two runs skew each other;
# JMH_IGNORE_LOCK=1 runs anyway, for a machine shared on purpose.
JMH_JVM=()
[ "${JMH_IGNORE_LOCK:-0}" = 1 ] && JMH_JVM+=(-Djmh.ignoreLock=true)
say "machine load (1, 5, 15 min): $(machine_load)"
say "java -jar benchmarks.jar ${JMH_OPTS[*]} -rf json -prof gc  (REDIS_URL=$REDIS_URL)"
bounded "$JMH_LIMIT" "$OUT/jmh.log" '^# (Benchmark|Parameters):|^Iteration|^# Run progress|ERROR|Exception' \
  "$JAVA" "${JMH_JVM[@]}" -jar "$JAR" "${JMH_OPTS[@]}" -rf json -rff "$OUT/jmh.json" -prof gc || true
if [ -s "$OUT/jmh.json" ]; then
  say "JMH wrote $OUT/jmh.json"
else
  grep -q 'Unable to acquire the JMH lock' "$OUT/jmh.log" && say "another JMH is running here; wait for it, or set JMH_IGNORE_LOCK=1"
  failed "JMH (see $OUT/jmh.log)"
fi

# ---------------------------------------------------------------- end to end: the server under load

if [ $QUICK = 1 ]; then
  LOAD_SECONDS=4
  LOAD_OPTS=(--users 40 --chats 10 --rate 300 --duration $LOAD_SECONDS --warmup 1)
else
  # The server, the generator and Redis share the machine: a load it can carry, measured after
  # a warm-up long enough for the JIT.
  LOAD_SECONDS=30
  LOAD_OPTS=(--users 200 --chats 20 --rate 400 --duration $LOAD_SECONDS --warmup 15)
fi
# shellcheck disable=SC2206
LOAD_OPTS+=(${LOAD_ARGS:-})
LOADS=()

load_run() { # $1 = label, then the store options of the server
  local label=$1 port log
  shift
  phase "load: $label (${LOAD_OPTS[*]})"
  port=$(free_port)
  log=$OUT/server-$label.log
  # No rate limits: the load measures the store and the server, not the limiter.
  "$JAVA" -cp "$JAR" dev.pigeonhole.app.Main serve --host 127.0.0.1 --port "$port" \
    --rate-send none --rate-create none --rate-invite none --rate-deliver none "$@" > "$log" 2>&1 &
  SERVER_PID=$!
  if ! wait_for_port "$port" "$SERVER_PID" 60; then
    say "the $label server did not start (see $log)"
    stop_pid "$SERVER_PID"; SERVER_PID=""
    return 1
  fi
  say "server PID $SERVER_PID on http://127.0.0.1:$port"
  local status=0
  # A generator that hangs must not hold the run past a few times its own duration.
  bounded $((3 * LOAD_SECONDS + 60)) "$OUT/load-$label.log" '.' \
    "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.load.LoadGenerator --url "http://127.0.0.1:$port" \
      "${LOAD_OPTS[@]}" --out "$OUT/load-$label.json" --label "$label" || status=$?
  stop_pid "$SERVER_PID"; SERVER_PID=""
  [ $status = 0 ] && [ -s "$OUT/load-$label.json" ] || return 1
  LOADS+=(--load "$OUT/load-$label.json")
}
load_run memory --store memory || failed "load: memory"
load_run jedis --store redis --redis-client jedis --redis-url "$REDIS_URL" --key-prefix "${RUN_PREFIX}jedis:" \
  || failed "load: jedis"
load_run lettuce --store redis --redis-client lettuce --redis-url "$REDIS_URL" --key-prefix "${RUN_PREFIX}lettuce:" \
  || failed "load: lettuce"
if [ $HAVE_POSTGRES = 1 ]; then
  # A schema of this run's own, which the server migrates at start; the password, if any, as the
  # server reads it (never on its command line).
  PIGEONHOLE_POSTGRES_PASSWORD=${POSTGRES_PASSWORD:-} load_run postgres --store postgres \
    --postgres-url "$POSTGRES_URL" --postgres-user "$POSTGRES_USER" \
    --postgres-schema "bench_load_$(printf '%04x%04x' $RANDOM $RANDOM)" || failed "load: postgres"
else
  say "load: postgres skipped (no PostgreSQL)"
fi

# ---------------------------------------------------------------- report

phase "report"
if [ $OWN_REDIS = 0 ]; then
  # Someone else's Redis: take away what the load runs left under this run's prefix.
  rcli --scan --pattern "${RUN_PREFIX}*" | xargs -r -n 500 redis-cli -u "$REDIS_URL" UNLINK >/dev/null || true
fi
cleanup
# A quick look must not replace the full run the repository publishes: it reports under target/.
if [ $QUICK = 1 ]; then
  REPORT_DIR="$OUT"
else
  REPORT_DIR="$ROOT/benchmarks"
fi
"$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.report.ResultsReport \
  --jmh "$OUT/jmh.json" --evalsha-1 "$OUT/evalsha-c1.csv" --evalsha-8 "$OUT/evalsha-c8.csv" "${LOADS[@]}" \
  --out "$REPORT_DIR/RESULTS.md" --charts "$REPORT_DIR/charts" --mode "$MODE" \
  --duration-seconds $((SECONDS - START)) --redis-version "${REDIS_VERSION:-}" \
  --postgres-version "$POSTGRES_VERSION" || failed "report"

echo
say "machine load (1, 5, 15 min): $(machine_load)"
say "done: $MODE run took $(((SECONDS - START) / 60))m $(((SECONDS - START) % 60))s"
say "wrote ${REPORT_DIR#"$ROOT"/}/RESULTS.md and its charts; raw results in $OUT"
if [ ${#FAILED[@]} -gt 0 ]; then
  say "phases that failed: ${FAILED[*]}"
  exit 1
fi
