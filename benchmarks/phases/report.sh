# shellcheck shell=bash
# The report: what the run left in target/results turned into RESULTS.md and its charts
# (ResultsReport), after every process the run started is stopped.

report_and_finish() {
  phase "report"
  [ ${#FCALL_ARGS[@]} -gt 0 ] && rcli DEL "${FCALL_KEYS[@]}" >/dev/null || true
  if [ $OWN_REDIS = 0 ]; then
    # Someone else's Redis: take away what the load runs left under this run's prefix.
    rcli --scan --pattern "${RUN_PREFIX}*" | xargs -r -n 500 redis-cli -u "$REDIS_URL" UNLINK >/dev/null || true
  fi
  cleanup
  # A quick look, or the floors or the clients alone, must not replace the full run the repository publishes: they
  # report under target/.
  if [ $QUICK = 1 ] || [ $PART_ONLY = 1 ]; then
    REPORT_DIR="$OUT"
  else
    REPORT_DIR="$ROOT/benchmarks"
  fi
  "$JAVA" -cp "$JAR" dev.pigeonhole.benchmarks.report.ResultsReport --results "$OUT" --notes "$NOTES" \
    --out "$REPORT_DIR/RESULTS.md" --charts "$REPORT_DIR/charts" --mode "$MODE" \
    --duration-seconds $((SECONDS - START)) --redis-version "${REDIS_VERSION:-}" --redis-cluster "$CLUSTER_TEXT" \
    --postgres-version "$POSTGRES_VERSION" || failed "report"

  echo
  say "machine load (1, 5, 15 min): $(machine_load)"
  say "done: $MODE run took $(((SECONDS - START) / 60))m $(((SECONDS - START) % 60))s"
  say "wrote ${REPORT_DIR#"$ROOT"/}/RESULTS.md and its charts; raw results in $OUT"
  if [ ${#FAILED[@]} -gt 0 ]; then
    say "phases that failed: ${FAILED[*]}"
    exit 1
  fi
}
