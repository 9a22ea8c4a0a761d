package dev.pigeonhole.benchmarks.floors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The hot loop, on either side: one caller, a fixed number of operations, {@code INFO
 * commandstats} read before and after. Each run starts from its workload's state set up afresh
 * under the workload's own prefix, so the operation and its floor meet the same keys; the floor
 * replays, operation by operation, the calls the last run of the operation recorded.
 */
final class Runs {

    /** What one run spent inside Redis on scripts, over how many operations. */
    record Spent(int operations, CommandStats scripts) {

        double microsPerOperation() {
            return (double) scripts.usec() / operations;
        }

        double callsPerOperation() {
            return (double) scripts.calls() / operations;
        }
    }

    /** One round's two sides of a workload. */
    record BothSides(Spent ours, Spent floor) {
    }

    private final RecordingDriver driver;
    private final Direct direct;
    private final String prefix;
    private final Map<String, List<List<Call>>> recorded = new HashMap<>();

    Runs(RecordingDriver driver, Direct direct, String prefix) {
        this.driver = Objects.requireNonNull(driver, "driver");
        this.direct = Objects.requireNonNull(direct, "direct");
        this.prefix = Objects.requireNonNull(prefix, "prefix");
    }

    /** The workload's keys' prefix: this run's, then the workload's. */
    String prefixOf(Workload workload) {
        return prefix + workload.key() + ":";
    }

    /** The adapter over the recording driver, with the workload's keys. */
    Adapter adapterFor(Workload workload) {
        return Adapter.over(driver, prefixOf(workload));
    }

    /** The workload's state, set up afresh: its keys wiped, then written again. */
    Adapter freshState(Workload workload, int operations) {
        Adapter adapter = adapterFor(workload);
        direct.wipe(prefixOf(workload));
        workload.setUp(adapter, direct, operations);
        driver.take();
        return adapter;
    }

    /**
     * The operation and its floor back to back, in the order asked, then the workload's keys
     * wiped. The floor replays the operation's last run: this one's when ours goes first.
     */
    BothSides bothSides(Workload workload, int operations, boolean oursFirst) {
        Spent ours = oursFirst ? operation(workload, operations) : null;
        Spent floor = floor(workload);
        if (!oursFirst) {
            ours = operation(workload, operations);
        }
        wipe(workload);
        return new BothSides(ours, floor);
    }

    /** The operation through the adapter, its calls recorded for the floor to replay. */
    Spent operation(Workload workload, int operations) {
        return checked(workload, "the operation", recordedRun(workload, operations), recorded(workload));
    }

    /**
     * A first, short run of the operation and then of its floor, counted but not checked: the
     * first call of each function may find Redis without its library and load it. Stops
     * the run if a function the operation calls has no floor in the library.
     */
    void warmUp(Workload workload, int operations, Set<String> floors) {
        recordedRun(workload, operations);
        List<String> missing = recorded(workload).stream().flatMap(List::stream).map(Call::floor).distinct()
                .filter(floor -> !floors.contains(floor)).toList();
        if (!missing.isEmpty()) {
            throw new IllegalStateException(workload.name() + " calls functions without a floor in " + Direct.LIBRARY
                    + ": " + missing);
        }
        floor(workload);
        wipe(workload);
    }

    private CommandStats recordedRun(Workload workload, int operations) {
        Adapter adapter = freshState(workload, operations);
        List<List<Call>> calls = new ArrayList<>(operations);
        CommandStats before = direct.scripts();
        for (int i = 0; i < operations; i++) {
            workload.prepare(i, adapter, direct);
            workload.run(i, adapter);
            calls.add(driver.take());
        }
        CommandStats spent = direct.scripts().since(before);
        recorded.put(workload.key(), List.copyOf(calls));
        return spent;
    }

    /** The floor of every call the operation's last run made, in the same state, with the same arguments. */
    Spent floor(Workload workload) {
        List<List<Call>> calls = recorded(workload);
        Adapter adapter = freshState(workload, calls.size());
        CommandStats before = direct.scripts();
        for (int i = 0; i < calls.size(); i++) {
            workload.prepare(i, adapter, direct);
            calls.get(i).forEach(direct::floor);
        }
        return checked(workload, "its floor", direct.scripts().since(before), calls);
    }

    /** The calls of the operation's last run, one list per operation. */
    List<List<Call>> recorded(Workload workload) {
        List<List<Call>> calls = recorded.get(workload.key());
        if (calls == null) {
            throw new IllegalStateException(workload.name() + " has not run yet: its floor has nothing to replay");
        }
        return calls;
    }

    /** Leaves nothing of the workload behind. */
    void wipe(Workload workload) {
        direct.wipe(prefixOf(workload));
    }

    /**
     * A count is only the loop's when Redis ran exactly the loop's calls: anything else running
     * scripts on this Redis meanwhile would be counted as ours.
     */
    private static Spent checked(Workload workload, String side, CommandStats spent, List<List<Call>> calls) {
        long expected = calls.stream().mapToLong(List::size).sum();
        if (spent.calls() != expected) {
            throw new IllegalStateException(workload.name() + ", " + side + ": Redis counted " + spent.calls()
                    + " script calls where the loop made " + expected + "; something else runs scripts on this Redis");
        }
        return new Spent(calls.size(), spent);
    }
}
