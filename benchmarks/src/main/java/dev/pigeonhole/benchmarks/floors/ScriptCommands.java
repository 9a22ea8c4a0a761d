package dev.pigeonhole.benchmarks.floors;

import dev.pigeonhole.adapter.redis.ScriptCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one place that knows how the adapter invokes its Lua: how one of its calls becomes the
 * command Redis runs, and which of {@code INFO commandstats}'s entries are that command's time.
 * Today the adapter loads each script on its own and calls it with EVALSHA; when it calls a
 * Functions library instead (FCALL, or FCALL_RO for a read), {@link #captured} is all that
 * changes here ({@link RecordingDriver} only hands it the call).
 */
final class ScriptCommands {

    /**
     * The commandstats entries whose time is script time, with or without Functions: the adapter's
     * EVALSHA (and the EVAL it falls back to on NOSCRIPT), FCALL and FCALL_RO, and the read-only
     * EVAL variants, so that one count serves the adapter before and after its move and the
     * floors' FCALL alike. Nothing else of ours runs while a count is taken.
     */
    static final Set<String> SCRIPT_STATS = Set.of("cmdstat_eval", "cmdstat_evalsha", "cmdstat_eval_ro",
            "cmdstat_evalsha_ro", "cmdstat_fcall", "cmdstat_fcall_ro");

    private ScriptCommands() {
    }

    /**
     * A call as Redis runs it: today {@code EVALSHA <sha1> <numkeys> keys… args…}; with Functions,
     * {@code FCALL|FCALL_RO <name> <numkeys> keys… args…}. The script's name is the one its floor
     * is named after ({@code floor_<name>} in the floors library).
     */
    static Call captured(ScriptCall call) {
        List<String> line = new ArrayList<>(call.keys().size() + call.args().size() + 3);
        line.add("EVALSHA");
        line.add(call.script().sha1());
        line.add(Integer.toString(call.keys().size()));
        line.addAll(call.keys());
        line.addAll(call.args());
        return new Call(call.script().name(), call.keys(), call.args(), line);
    }
}
