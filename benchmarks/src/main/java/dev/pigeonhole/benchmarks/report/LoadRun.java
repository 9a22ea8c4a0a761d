package dev.pigeonhole.benchmarks.report;

import tools.jackson.databind.JsonNode;

/** One run of the load generator: its label and its JSON, read field by field where it is shown. */
record LoadRun(String label, JsonNode json) {
}
