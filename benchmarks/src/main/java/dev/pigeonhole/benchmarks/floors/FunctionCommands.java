package dev.pigeonhole.benchmarks.floors;

import dev.pigeonhole.adapter.redis.FunctionCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The one place that knows how the adapter invokes its Lua: how one of its calls becomes the
 * command Redis runs (FCALL, or FCALL_RO for a function registered {@code no-writes}), and which
 * of {@code INFO commandstats}'s entries are that command's time.
 */
final class FunctionCommands {

    /**
     * The commandstats entries whose time is time inside Lua: FCALL and FCALL_RO, the adapter's
     * and the floors' alike, and the EVAL family, so that a count stays right for a script run
     * the old way. Nothing else of ours runs while a count is taken.
     */
    static final Set<String> SCRIPT_STATS = Set.of("cmdstat_eval", "cmdstat_evalsha", "cmdstat_eval_ro",
            "cmdstat_evalsha_ro", "cmdstat_fcall", "cmdstat_fcall_ro");

    private FunctionCommands() {
    }

    /**
     * A call as Redis runs it: {@code FCALL|FCALL_RO <name> <numkeys> keys… args…}. Its floor is
     * named after the function without the library's version ({@code chat_send_v1} has
     * {@code floor_chat_send}), so the floors outlive a new version of the library.
     */
    static Call captured(FunctionCall call) {
        List<String> line = new ArrayList<>(call.keys().size() + call.args().size() + 3);
        line.add(call.function().command());
        line.add(call.function().name());
        line.add(Integer.toString(call.keys().size()));
        line.addAll(call.keys());
        line.addAll(call.args());
        String operation = call.function().name().replaceFirst("_v\\d+$", "");
        return new Call(operation, call.keys(), call.args(), line);
    }
}
