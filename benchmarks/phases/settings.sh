# shellcheck shell=bash
# The run's sizes, quick or full: rounds, JMH options, load, fan-out, connections, catalog and
# floors; which backends and stores there are; and the notes file started.

settings_phase() {
  if [ $QUICK = 1 ]; then
    ROUNDS=${ROUNDS:-2}
    # One short iteration per trial: enough to show each ratio's order of magnitude, not to judge it.
    ROUND_JMH=(-f 1 -wi 1 -w 500ms -i 1 -r 1s -bm thrpt)
    RB_SENDS=(10000 30000 100000)
    # The servers stay up through the rounds; the first run of each warms the JIT for several
    # seconds at a gentle rate, so that even the quick figures are of a warm server.
    LOAD_FIRST_WARMUP=8; LOAD_WARMUP=2; LOAD_SECONDS=4
    LOAD_OPTS=(--users 40 --chats 10 --rate 100)
    HTTP_OPTS=(--callers 8 --warmup 1 --duration 3)
    # The fan-out scenario: p99 needs a few hundred messages, so 3 s at its 100 a second.
    FANOUT_FIRST_WARMUP=4; FANOUT_WARMUP=2; FANOUT_SECONDS=3
    # Smaller N than the full run's 1 000 and 5 000, which the report says: a check that it runs.
    CONN_NS=(300 1000); CONN_LIMITS=(60 90); CONN_OPTS=(--warmup-sockets 50 --rounds 3)
    # Throughput only, K and N at the ends (K = 100 is the target's); what the rounds measured
    # (8 threads, virtual threads, the book's send and fetch) is left to them: the tables take the
    # rounds' median where the catalog has no figure.
    CATALOG_JMH=(-f 1 -wi 1 -w 300ms -i 1 -r 700ms -bm thrpt -p chats=1,100 -p subscribers=1,1000
                 '^(?!.*(SendBenchmark\.send8|SendBenchmark\.sendVirtual64|BookSendBenchmark|BookFetchBenchmark)).*')
    ROUND_LIMIT=300; CATALOG_LIMIT=600
    FLOORS_CALLS=3000; FLOORS_LIMIT=240
  else
    ROUNDS=${ROUNDS:-3}
    # Per trial about 8 s of warming and measuring plus 2 to 3 s of fork and set-up; 16 trials a
    # round. Two warm-up iterations: Lettuce's one caller takes several seconds to reach its pace
    # (2.8k, then 6.2k, then 8.6k sends a second over its first three 2-second iterations here).
    ROUND_JMH=(-f 1 -wi 2 -w 2s -i 2 -r 2s -bm thrpt)
    RB_SENDS=(40000 150000 500000)
    LOAD_FIRST_WARMUP=15; LOAD_WARMUP=5; LOAD_SECONDS=10
    LOAD_OPTS=(--users 200 --chats 20 --rate 400)
    HTTP_OPTS=(--callers 16 --warmup 2 --duration 8)
    # 600 messages a round: the p99 is the sixth slowest, and the three stores add about a minute.
    FANOUT_FIRST_WARMUP=6; FANOUT_WARMUP=3; FANOUT_SECONDS=6
    # Each N's whole run (sign-in, warm-up, opening, fan-out) is cut at its limit, and reports what
    # it has: at the 15 connects a second of before the batched presence, 5 000 would take 6 minutes.
    CONN_NS=(1000 5000); CONN_LIMITS=(90 180); CONN_OPTS=(--warmup-sockets 200 --rounds 5)
    # Every benchmark on every backend, throughput only, but for what the rounds measure already
    # (the tables take the rounds' median there): about 60 trials of 3 s plus set-up.
    CATALOG_JMH=(-f 1 -wi 1 -w 1s -i 2 -r 1s -bm thrpt
                 '^(?!.*(SendBenchmark\.sendVirtual64|BookSendBenchmark|ManyCallersBenchmark)).*')
    ROUND_LIMIT=900; CATALOG_LIMIT=3600
    # 10 000 calls of each operation and of its floor per round (a hundredth of that many K = 100
    # operations), and capacity runs of about half a second of Redis time each: 2 to 3 minutes.
    FLOORS_CALLS=10000; FLOORS_LIMIT=420
  fi
  # shellcheck disable=SC2206 # LOAD_ARGS is split on purpose: it is a list of arguments
  LOAD_OPTS+=(${LOAD_ARGS:-})

  SINGLE_BACKENDS=IN_MEMORY,JEDIS,LETTUCE
  [ $HAVE_POSTGRES = 1 ] && SINGLE_BACKENDS+=,POSTGRES
  CLUSTER_BACKENDS=""
  [ $HAVE_CLUSTER = 1 ] && CLUSTER_BACKENDS=,JEDIS_CLUSTER,LETTUCE_CLUSTER
  STORES=(memory jedis lettuce)
  [ $HAVE_POSTGRES = 1 ] && STORES+=(postgres)
  FANOUT_STORES=(memory jedis lettuce)

  # JMH refuses to start while another JMH holds /tmp/jmh.lock, since two runs skew each other;
  # JMH_IGNORE_LOCK=1 runs anyway, for a machine shared on purpose.
  JMH_JVM=()
  [ "${JMH_IGNORE_LOCK:-0}" = 1 ] && JMH_JVM+=(-Djmh.ignoreLock=true)
  HAVE_MANY_CALLERS=0
  "$JAVA" -jar "$JAR" -l 2>/dev/null | grep -q 'ManyCallersBenchmark' && HAVE_MANY_CALLERS=1

  NOTES=$OUT/notes.md
  : > "$NOTES"
  note "Machine load (1, 5, 15 min) at the start: $(machine_load)."
}
