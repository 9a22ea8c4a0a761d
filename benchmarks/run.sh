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
# report still comes out, with "not run" where that phase's numbers would be. This script is the
# order of the phases; each phase's steps are in benchmarks/phases/NAME.sh beside it.
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

PHASES=$ROOT/benchmarks/phases
# Sourced, not run: the phases share this shell's state (the processes it owns, the settings, the
# notes), and cleanup must reach every process any of them started.
for part in common build redis postgres settings servers ratio floors clients durability connections catalog report; do
  # shellcheck source=/dev/null
  . "$PHASES/$part.sh"
done
trap cleanup EXIT
trap 'echo; say "interrupted"; exit 130' INT TERM

java_setup
say "machine load (1, 5, 15 min): $(machine_load)"
build_phase      # benchmarks.jar, and a fresh target/results
redis_phase      # REDIS_URL's Redis, or a private redis-server
if [ $PART_ONLY = 0 ]; then
  # The runs of one part alone measure the single node and nothing else.
  cluster_phase  # REDIS_CLUSTER_NODES' cluster, or a private one of 3 masters
  postgres_phase # POSTGRES_URL's PostgreSQL, or a private one, or none
fi
settings_phase   # the sizes of a quick or a full run, and the notes started

case $MODE in
  floors) floors_run; report_and_finish; exit 0 ;;
  clients) clients_run; report_and_finish; exit 0 ;;
  durability) durability_run; report_and_finish; exit 0 ;;
esac

fcall_phase      # the send function loaded for redis-benchmark
servers_phase    # a server per store, up through the rounds
ratio_phase      # ROUNDS rounds of every target's two sides; the servers stopped after them
# With the servers stopped: a count of script time must see no script but the floors benchmark's.
floors_run
# Then the clients compared, on the same quiet single node (about 6 minutes for the four).
clients_run
durability_run
connections_phase # a fresh in-memory server for each N
catalog_phase    # every benchmark on every backend, for the tables
report_and_finish
