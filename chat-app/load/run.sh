#!/usr/bin/env bash
# Requests per second of POST /api/chats/{chat}/messages on each backend: the in-memory store,
# and Redis through Jedis and through Lettuce. Starts its own redis-server and servers on
# 127.0.0.1, runs wrk with send.lua, stops everything it started, prints a markdown table.
#
#   chat-app/load/run.sh                       # 5 s warm-up, then 15 s at 16 and at 1 connection
#   WARMUP=2s DURATION=5s chat-app/load/run.sh # a quicker, noisier look
#   WARMUP=30s chat-app/load/run.sh            # on a busy machine, where the JIT needs longer
#
# Needs wrk, curl and a JDK 21+ (JAVA_HOME, else what ./pigeonhole picks); redis-server for the
# Redis rows, which are skipped without it.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$root"

WARMUP=${WARMUP:-5s}
DURATION=${DURATION:-15s}
CONNECTIONS=${CONNECTIONS:-16}
THREADS=${THREADS:-2}
# The longest a server may take to come up or to go down before the run gives up on it.
START_LIMIT=60
STOP_LIMIT=20

for tool in wrk curl; do
  command -v "$tool" >/dev/null || { echo "run.sh: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done

if [ -z "${JAVA_HOME:-}" ]; then
  JAVA_HOME=$(./pigeonhole jdk)
fi
export JAVA_HOME
java_major=$("$JAVA_HOME/bin/java" -XshowSettings:properties -version 2>&1 \
  | sed -n 's/^ *java.specification.version = //p')
if [ "${java_major%%.*}" -ge 23 ]; then
  # Maven still touches sun.misc.Unsafe; newer JDKs warn on every run unless told it is known.
  export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow"
fi

# The launcher rebuilds when any source is newer than the last build, so a run never measures stale jars.
./pigeonhole help >/dev/null
# The reactor's package copies every module's jar, the project's own included, into target/lib.
classpath="chat-app/target/classes:chat-app/target/lib/*"

work=$(mktemp -d "${TMPDIR:-/tmp}/pigeonhole-load.XXXXXX")
started_pids=()

cleanup() {
  local pid
  for pid in "${started_pids[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  for pid in "${started_pids[@]}"; do
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null || true
  done
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A port nothing answers on. redis-server cannot be told to pick one and report it, unlike the
# chat server; a port taken between this check and its bind makes redis-server fail, and the
# readiness wait below says so.
free_port() {
  local port
  for _ in $(seq 100); do
    port=$(( 20000 + RANDOM % 20000 ))
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "$port"
      return 0
    fi
  done
  echo "run.sh: found no free port" >&2
  return 1
}

json_field() { # $1 = field name; reads one JSON object, prints that string field
  sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"
}

post() { # $1 = url, $2 = body, $3 = token or empty; prints the body, fails on any non-2xx
  local auth=()
  [ -n "$3" ] && auth=(-H "Authorization: Bearer $3")
  curl -sS --fail-with-body --max-time 10 -X POST -H 'Content-Type: application/json' \
    "${auth[@]}" -d "$2" "$1"
}

redis_pid=""
redis_port=""
if command -v redis-server >/dev/null; then
  redis_port=$(free_port)
  redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --daemonize no \
    >"$work/redis.log" 2>&1 &
  redis_pid=$!
  started_pids+=("$redis_pid")
  for _ in $(seq 100); do
    grep -q 'Ready to accept connections' "$work/redis.log" && break
    kill -0 "$redis_pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! grep -q 'Ready to accept connections' "$work/redis.log"; then
    echo "run.sh: redis-server did not start; see $work/redis.log" >&2
    exit 1
  fi
fi

rows=()
stops=()
# Other work on the machine takes cores from wrk, the JVM and Redis alike; the load average
# around the run says how far to trust it.
load_before=$(cut -d' ' -f1-3 /proc/loadavg)

# $1 = label, rest = serve options
measure() {
  local label=$1 name log pid port base alice chat url line
  shift
  name=$(echo "$label" | tr -c 'a-z0-9\n' '-')
  log="$work/server-$name.log"
  # Port 0 lets the server take a free port itself; the port is read from its start-up line.
  # No rate limits: the load measures the store and the server, not the limiter.
  "$JAVA_HOME/bin/java" -cp "$classpath" dev.pigeonhole.app.Main serve --host 127.0.0.1 --port 0 \
    --rate-send none --rate-create none --rate-invite none --rate-deliver none "$@" >"$log" 2>&1 &
  pid=$!
  started_pids+=("$pid")
  port=""
  for _ in $(seq $(( START_LIMIT * 10 ))); do
    port=$(sed -n 's/^Pigeonhole is listening on http:\/\/[^:]*:\([0-9]*\) .*/\1/p' "$log")
    [ -n "$port" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if [ -z "$port" ]; then
    echo "run.sh: the $label server did not start; see $log" >&2
    exit 1
  fi
  base="http://127.0.0.1:$port"

  alice=$(post "$base/api/session" '{"user":"alice"}' "" | json_field token)
  post "$base/api/session" '{"user":"bob"}' "" >/dev/null
  chat=$(post "$base/api/chats" '{"members":["bob"],"message":"hi"}' "$alice" | json_field chatId)
  url="$base/api/chats/$chat/messages"

  echo "== $label: $url" >&2
  # The first seconds of a JVM run interpreted and half-compiled code; only warm runs count.
  wrk -t"$THREADS" -c"$CONNECTIONS" -d"$WARMUP" --latency -s "$here/send.lua" "$url" -- "$alice" \
    >"$work/wrk-$name-warmup.txt"
  run_wrk "$label" "$name" "$THREADS" "$CONNECTIONS" "$url" "$alice"
  # wrk wants at least one connection per thread, so the single-connection run has one thread.
  run_wrk "$label" "$name" 1 1 "$url" "$alice"

  stop_server "$label" "$pid"
}

# $1 = label, $2 = file-safe name, $3 = threads, $4 = connections, $5 = url, $6 = token
run_wrk() {
  local out="$work/wrk-$2-c$4.txt" line
  wrk -t"$3" -c"$4" -d"$DURATION" --latency -s "$here/send.lua" "$5" -- "$6" >"$out"
  cat "$out" >&2
  line=$(grep '^RESULT ' "$out")
  rows+=("$(echo "$line" | awk -v backend="$1" -v conns="$4" '{
      for (i = 2; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
      printf "| %s | %s | %.0f | %.2f ms | %.2f ms | %d | %d |", backend, conns, f["rps"],
        f["p50_us"] / 1000, f["p99_us"] / 1000, f["non201"], f["socket_errors"]
    }')")
}

# SIGTERM is what a container runtime sends; the time to exit is how long a deploy waits.
stop_server() {
  local label=$1 pid=$2 started ended status
  started=$(date +%s%N)
  kill -TERM "$pid"
  for _ in $(seq $(( STOP_LIMIT * 20 ))); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  ended=$(date +%s%N)
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null || true
    stops+=("| $label | still running after ${STOP_LIMIT} s, killed | - |")
    return
  fi
  status=0
  wait "$pid" || status=$?
  stops+=("| $label | $(( (ended - started) / 1000000 )) ms | $status |")
}

measure memory --store memory
if [ -n "$redis_pid" ]; then
  measure "redis jedis" --store redis --redis-client jedis --redis-url "redis://127.0.0.1:$redis_port" \
    --key-prefix bench1:
  measure "redis lettuce" --store redis --redis-client lettuce --redis-url "redis://127.0.0.1:$redis_port" \
    --key-prefix bench2:
else
  echo "run.sh: no redis-server on the PATH; Redis rows skipped" >&2
fi

echo
echo "POST /api/chats/{chat}/messages, wrk $DURATION after a $WARMUP warm-up at $CONNECTIONS connections;" \
  "$(nproc) cores, JDK $("$JAVA_HOME/bin/java" -XshowSettings:properties -version 2>&1 \
    | sed -n 's/^ *java.runtime.version = //p')${redis_pid:+, $(redis-server --version | cut -d' ' -f1-3)}"
echo "load average (1, 5, 15 min): $load_before before, $(cut -d' ' -f1-3 /proc/loadavg) after"
echo
echo "| backend | connections | req/s | p50 | p99 | non-201 | socket errors |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "| backend | SIGTERM to exit | exit status |"
echo "|---|---|---|"
printf '%s\n' "${stops[@]}"
echo
echo "logs and wrk output: $work"
