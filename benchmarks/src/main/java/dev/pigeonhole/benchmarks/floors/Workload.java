package dev.pigeonhole.benchmarks.floors;

/**
 * One operation as the benchmark drives it: through the adapter's port classes, in a state set up
 * beforehand, one operation after another. Its ids depend on nothing but its index, so that a run
 * set up again finds the same keys, and a floor can replay the calls an earlier run recorded.
 */
interface Workload {

    /** How the report names it. */
    String name();

    /** A short name of letters and dashes: its keys' prefix and its result files'. */
    String key();

    /** The chats one operation covers; its figures are per chat when that is more than one. */
    default int chatsPerOperation() {
        return 1;
    }

    /** How many operations a run makes, for a run of {@code calls} calls of one-call operations. */
    default int operations(int calls) {
        return calls;
    }

    /** The state the operations start from, written through the adapter or directly; not measured. */
    void setUp(Adapter adapter, Direct direct, int operations);

    /**
     * What has to happen before operation {@code i}, such as new messages for a cursor to move to,
     * written with plain commands, which the script count leaves out. Nothing by default.
     */
    default void prepare(int i, Adapter adapter, Direct direct) {
    }

    /** Operation {@code i}, through the adapter. */
    void run(int i, Adapter adapter);

    /** How redis-benchmark may repeat the first operation's calls, if at all. */
    Replay replay();
}
