# shellcheck shell=bash
# What every phase of run.sh uses: its messages, the processes it owns (stopped by PID, never by
# name), commands bounded in time, loopback ports, the run's notes and JMH. Sourced by run.sh.

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

machine_load() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown; }

# The run's notes, which the report shows under "How this run was made"; settings_phase starts the file.
note() { printf -- '- %s\n' "$*" >> "$NOTES"; }

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
