package dev.pigeonhole.benchmarks.floors;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How redis-benchmark repeats a recorded call as a command line: exactly as recorded, or with
 * every occurrence of one id (a chat, a user, a key) made random ({@code __rand_int__}, drawn
 * below {@code range}) where each call must meet a new one; or not at all, with the reason, where
 * no repeated line would do what the operation does.
 */
record Replay(Optional<String> varying, int range, Optional<String> skipped) {

    static final String RANDOM = "__rand_int__";

    /** The recorded line, unchanged: the operation meets the same state every time. */
    static Replay asRecorded() {
        return new Replay(Optional.empty(), 0, Optional.empty());
    }

    /** The recorded line with {@code id} made {@code id} + a random number below {@code range}. */
    static Replay varying(String id, int range) {
        return new Replay(Optional.of(id), range, Optional.empty());
    }

    static Replay skipped(String why) {
        return new Replay(Optional.empty(), 0, Optional.of(why));
    }

    /** The command line redis-benchmark repeats. */
    List<String> line(List<String> recorded) {
        if (varying.isEmpty()) {
            return recorded;
        }
        List<String> line = new ArrayList<>(recorded.size());
        recorded.forEach(word -> line.add(word.replace(varying.get(), varying.get() + RANDOM)));
        return line;
    }

    /** The line as one call of it runs: every random part drawn, as redis-benchmark draws it. */
    static List<String> drawn(List<String> line, long draw) {
        String digits = String.format("%012d", draw);
        return line.stream().map(word -> word.replace(RANDOM, digits)).toList();
    }

    /** redis-benchmark's options for the random parts: {@code -r range}, or none. */
    List<String> options() {
        return varying.isEmpty() ? List.of() : List.of("-r", Integer.toString(range));
    }
}
