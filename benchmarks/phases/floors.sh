# shellcheck shell=bash
# The floors: each Redis operation beside the floor of the commands it cannot do without
# (FloorsBenchmark), on the single node, into target/results/floors.json.

floors_run() { # on the single node, with nothing else running scripts on it
  local status=0
  phase "floors: each Redis operation beside its floor, ${FLOORS_CALLS} calls, 3 rounds"
  command -v redis-benchmark >/dev/null || { say "redis-benchmark not found"; failed "floors"; return 0; }
  say "machine load (1, 5, 15 min): $(machine_load)"
  local floors_start=$SECONDS
  bounded "$FLOORS_LIMIT" "$OUT/floors.log" '^\[floors\]|Exception' \
    "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.floors.FloorsBenchmark --out "$OUT/floors.json" \
      --rounds 3 --calls "$FLOORS_CALLS" || status=$?
  [ $status = 0 ] && [ -s "$OUT/floors.json" ] || failed "floors (see $OUT/floors.log)"
  note "Floors: 3 rounds of ${FLOORS_CALLS} calls per operation on the single node$([ "$FLOORS_CALLS" -lt 10000 ] \
    && echo " (fewer than the full run's 10 000)"); the phase took $((SECONDS - floors_start)) s;" \
    "machine load after it: $(machine_load)."
}
