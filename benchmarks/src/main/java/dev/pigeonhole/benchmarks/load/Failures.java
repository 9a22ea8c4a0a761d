package dev.pigeonhole.benchmarks.load;

/**
 * How the load generator words what went wrong: one line each, short enough that a dead server's
 * hundreds of failures stay readable.
 */
final class Failures {

    private Failures() {
    }

    /** A setup step that failed in a way already worth one line as it stands. */
    static final class SetupFailure extends Exception {
        SetupFailure(String message) {
            super(message, null, false, false);
        }
    }

    static String setupMessage(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SetupFailure) {
                return t.getMessage();
            }
        }
        return oneLine(e);
    }

    static String brief(String s) {
        String flat = s == null ? "" : s.replaceAll("\\s+", " ");
        return flat.length() > 200 ? flat.substring(0, 200) + "…" : flat;
    }

    /**
     * The exception chain on one line. The HTTP client's own failures are wrappers without a
     * message (ConnectException around ClosedChannelException), so the outermost alone says nothing.
     */
    static String oneLine(Throwable e) {
        StringBuilder line = new StringBuilder();
        int depth = 0;
        String previous = null;
        for (Throwable t = e; t != null && depth < 4; t = t.getCause(), depth++) {
            if (t instanceof java.util.concurrent.ExecutionException && t.getCause() != null) {
                continue;
            }
            // The client rethrows its own exception wrapped in a copy of itself.
            String here = t.getClass().getName() + ":" + t.getMessage();
            if (here.equals(previous)) {
                continue;
            }
            previous = here;
            if (!line.isEmpty()) {
                line.append(" <- ");
            }
            line.append(t.getClass().getSimpleName());
            if (t.getMessage() != null) {
                line.append(": ").append(brief(t.getMessage()));
            }
        }
        return line.toString();
    }
}
