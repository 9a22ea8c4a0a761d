# shellcheck shell=bash
# The ratio phase: ROUNDS rounds, each measuring every target's two sides back to back, into
# target/results/rounds/N/; and redis-benchmark of the send function, which some of them divide by.

# The send script's line for redis-benchmark, once fcall_prepare has written it; the report takes
# its keys away.
FCALL_ARGS=()
FCALL_KEYS=()
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

fcall_phase() {
  phase "redis-benchmark: the send function through FCALL"
  fcall_prepare || failed "redis-benchmark"
}

ratio_phase() {
  local round store
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
}
