package dev.pigeonhole.benchmarks.floors;

import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What {@code INFO commandstats} says Redis spent on scripts: how many calls and how many
 * microseconds inside Redis, summed over {@link FunctionCommands#SCRIPT_STATS}. Two readings around
 * a loop give its calls and its time, with neither the network nor the client in them.
 */
record CommandStats(long calls, long usec) {

    /** {@code cmdstat_evalsha:calls=3,usec=41,usec_per_call=13.67,rejected_calls=0,failed_calls=0}. */
    private static final Pattern LINE = Pattern.compile("^(cmdstat_[^:]+):calls=(\\d+),usec=(\\d+)\\b.*$");

    /** Every command's entry in {@code INFO commandstats}'s text, by its name ({@code cmdstat_…}). */
    static Map<String, CommandStats> parse(String info) {
        Map<String, CommandStats> byCommand = new TreeMap<>();
        for (String line : info.split("\\R")) {
            Matcher entry = LINE.matcher(line.strip());
            if (entry.matches()) {
                byCommand.put(entry.group(1), new CommandStats(Long.parseLong(entry.group(2)),
                        Long.parseLong(entry.group(3))));
            }
        }
        return byCommand;
    }

    /** The script commands' calls and time in {@code INFO commandstats}'s text. */
    static CommandStats scripts(String info) {
        long calls = 0;
        long usec = 0;
        for (Map.Entry<String, CommandStats> entry : parse(info).entrySet()) {
            if (FunctionCommands.SCRIPT_STATS.contains(entry.getKey())) {
                calls += entry.getValue().calls();
                usec += entry.getValue().usec();
            }
        }
        return new CommandStats(calls, usec);
    }

    /** What happened between an earlier reading and this one. */
    CommandStats since(CommandStats earlier) {
        return new CommandStats(calls - earlier.calls, usec - earlier.usec);
    }
}
