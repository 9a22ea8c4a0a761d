# shellcheck shell=bash
# Durable sends: the send port without and with a wait for one replica (DurableSends), which a
# replica of the private single node started here gives; into target/results/durability/.

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
