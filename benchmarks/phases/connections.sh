# shellcheck shell=bash
# Many live connections: N sockets against a fresh in-memory server for each N
# (ConnectionsBenchmark), into target/results/connections-N.json.

# Each side holds a descriptor per socket, and the benchmark needs about N + 300 on each: the soft
# limit is raised for the children where the hard one allows (a JVM raises its own to the hard
# limit anyway, but a shell-started server must not depend on that).
raise_open_files() {
  local n fd_soft fd_hard
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
}

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

connections_phase() {
  local i
  raise_open_files
  phase "many live connections: N = ${CONN_NS[*]}, a fresh in-memory server each"
  say "open files: soft limit $(ulimit -Sn), hard $(ulimit -Hn); N = $CONN_MAX needs about $CONN_FDS"
  CONN_START=$SECONDS
  for i in "${!CONN_NS[@]}"; do
    connections_run "${CONN_NS[$i]}" "${CONN_LIMITS[$i]}"
  done
  note "Many live connections: N = ${CONN_NS[*]}$([ $QUICK = 1 ] && echo " (quick mode: the full run's are 1 000 and 5 000)")," \
    "each against a fresh in-memory server, \`${CONN_OPTS[*]}\`, each whole run cut at ${CONN_LIMITS[*]} s;" \
    "open files $(ulimit -Sn). The phase took $((SECONDS - CONN_START)) s."
}
