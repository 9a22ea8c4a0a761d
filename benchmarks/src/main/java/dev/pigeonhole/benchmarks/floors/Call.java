package dev.pigeonhole.benchmarks.floors;

import java.util.ArrayList;
import java.util.List;

/**
 * One call the adapter made, as {@link FunctionCommands} saw it: the function's name without its
 * version, its keys and
 * arguments, and the command line Redis ran for it.
 */
record Call(String operation, List<String> keys, List<String> args, List<String> commandLine) {

    Call {
        keys = List.copyOf(keys);
        args = List.copyOf(args);
        commandLine = List.copyOf(commandLine);
    }

    /** The floors library's function for this call's function: same keys, same arguments. */
    String floor() {
        return "floor_" + operation;
    }

    /** The command line that runs this call's floor instead of its function. */
    List<String> floorCommandLine() {
        List<String> line = new ArrayList<>(keys.size() + args.size() + 3);
        line.add("FCALL");
        line.add(floor());
        line.add(Integer.toString(keys.size()));
        line.addAll(keys);
        line.addAll(args);
        return line;
    }
}
