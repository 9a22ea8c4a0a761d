# shellcheck shell=bash
# The catalog: one JMH run of every benchmark on every backend, for the report's tables, into
# target/results/jmh.json.

catalog_phase() {
  phase "JMH catalog (-prof gc)"
  CATALOG_JMH+=(-p "backend=$SINGLE_BACKENDS$CLUSTER_BACKENDS")
  # shellcheck disable=SC2206 # JMH_ARGS is split on purpose: it is a list of arguments
  CATALOG_JMH+=(${JMH_ARGS:-} "${EXTRA_JMH[@]}")
  note "Catalog: \`${CATALOG_JMH[*]}\`$([ $QUICK = 1 ] && echo "; what the rounds measured and it skips shows the rounds' median")."
  say "machine load (1, 5, 15 min): $(machine_load)"
  say "java -jar benchmarks.jar ${CATALOG_JMH[*]} -rf json -prof gc  (REDIS_URL=$REDIS_URL)"
  CATALOG_START=$SECONDS
  if jmh "$OUT/jmh.json" $CATALOG_LIMIT "${CATALOG_JMH[@]}"; then
    say "JMH wrote $OUT/jmh.json"
  else
    failed "JMH catalog (see $OUT/jmh.log)"
  fi
  note "The catalog took $((SECONDS - CATALOG_START)) s; machine load after it: $(machine_load)."
}
