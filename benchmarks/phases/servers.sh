# shellcheck shell=bash
# The servers of the end-to-end runs, one per store, kept up through the ratio rounds, and the
# three runs made against each: the load generator, its fan-out scenario, the HTTP send rate.

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

servers_phase() {
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
}

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
