# shellcheck shell=bash
# The PostgreSQL the run measures: POSTGRES_URL's, or a private one; without either its rows are skipped.

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

postgres_phase() {
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
}
