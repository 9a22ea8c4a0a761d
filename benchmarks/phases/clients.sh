# shellcheck shell=bash
# The Redis clients compared on the single node (ClientComparison), into target/results/clients/.

clients_run() {
  local status=0 clients_start=$SECONDS
  local clients_opts=(--out "$OUT/clients")
  [ -n "${CLIENTS:-}" ] && clients_opts+=(--clients "$CLIENTS")
  phase "clients compared: ${CLIENTS:-the default clients}, ${EXTRA_JMH[*]:-default options}"
  say "machine load (1, 5, 15 min): $(machine_load)"
  # Each client takes about 2 minutes over the 3 rounds and its allocation fork; the limit leaves room for 4 and a slow machine.
  bounded 1200 "$OUT/clients.log" '^\[clients\]|Exception|^# (Benchmark|Parameters):' \
    "$JAVA" "${JMH_JVM[@]}" -cp "$JAR" dev.pigeonhole.benchmarks.clients.ClientComparison "${clients_opts[@]}" \
      "${EXTRA_JMH[@]}" || status=$?
  [ $status = 0 ] && [ -s "$OUT/clients/measures.csv" ] || failed "clients (see $OUT/clients.log)"
  local command="ClientComparison ${clients_opts[*]#"$ROOT"/} ${EXTRA_JMH[*]}"
  note "Clients compared: \`${command% }\` on the single node; the phase took" \
    "$((SECONDS - clients_start)) s; machine load after it: $(machine_load)."
}
