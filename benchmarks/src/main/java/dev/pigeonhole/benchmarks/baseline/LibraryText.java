package dev.pigeonhole.benchmarks.baseline;

import dev.pigeonhole.adapter.redis.Functions;

/**
 * For run.sh's redis-benchmark of the send: prints the adapter's Functions library as
 * {@code FUNCTION LOAD} takes it, or, given an operation's name ({@code chat_send}), the name
 * FCALL takes for it in this version of the library.
 */
public final class LibraryText {

    private LibraryText() {
    }

    public static void main(String[] args) {
        System.out.print(args.length == 0 ? Functions.library().source() : Functions.nameOf(args[0]));
    }
}
