package dev.pigeonhole.adapter.postgres;

import java.sql.SQLException;
import java.util.function.Supplier;

/**
 * SQL failures carried through a log the aggregate reads ({@code MessageLog}, {@code MailboxLog}):
 * a log's method may not throw {@link SQLException}, so a failure leaves it wrapped and the
 * store's transaction gets it back as it was, to roll back and classify as every other failure.
 */
final class LogReads {

    private LogReads() {
    }

    /** One statement of a log: its failure is carried out of the log to {@link #reading}. */
    static <T> T carrying(Statement<T> statement) {
        try {
            return statement.run();
        } catch (SQLException e) {
            throw new Carried(e);
        }
    }

    /** Runs a read that goes through a log, giving back the SQL failure the log could not throw itself. */
    static <T> T reading(Supplier<T> read) throws SQLException {
        try {
            return read.get();
        } catch (Carried carried) {
            throw carried.cause;
        }
    }

    @FunctionalInterface
    interface Statement<T> {
        T run() throws SQLException;
    }

    private static final class Carried extends RuntimeException {

        private final SQLException cause;

        Carried(SQLException cause) {
            super(cause.getMessage(), cause, false, false);
            this.cause = cause;
        }
    }
}
