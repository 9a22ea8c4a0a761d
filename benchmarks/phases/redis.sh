# shellcheck shell=bash
# The Redis the run measures: REDIS_URL's, or a private redis-server; and for the full and quick
# runs a Redis Cluster, REDIS_CLUSTER_NODES' or a private one of 3 masters formed here.

RUN_PREFIX="bench-run-$$-$RANDOM:"
OWN_REDIS=0
REDIS_VERSION=""
rcli() { redis-cli -u "$REDIS_URL" "$@"; }

redis_phase() {
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
  REDIS_VERSION=$(rcli INFO server 2>/dev/null | tr -d '\r' | sed -n 's/^redis_version://p' || true)
  say "Redis version: ${REDIS_VERSION:-unknown}"
}

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
cluster_phase() {
  local pid
  if [ -n "${REDIS_CLUSTER_NODES:-}" ]; then
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
}
