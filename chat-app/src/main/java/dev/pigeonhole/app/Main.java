package dev.pigeonhole.app;

import java.io.PrintStream;
import java.time.InstantSource;

/** The command line. Its own output goes to standard out; that is what a command line is for. */
public final class Main {

    private static final String USAGE = """
            usage: pigeonhole <command>

            commands:
              demo    play Redis in Action's group chat scenario on the in-memory store
              help    show this text
            """;

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        System.exit(run(args, System.out, System.err));
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        String command = args.length == 0 ? "help" : args[0];
        switch (command) {
            case "demo" -> {
                try (Pigeonhole app = Pigeonhole.start(AppConfig.defaults(), InstantSource.system())) {
                    out.println("Pigeonhole demo, store: " + StoreKind.MEMORY.name().toLowerCase());
                    new BookScenario(app, out).run();
                }
                return 0;
            }
            case "help", "--help", "-h" -> {
                out.print(USAGE);
                return 0;
            }
            default -> {
                err.println("pigeonhole: unknown command '" + command + "'");
                err.print(USAGE);
                return 2;
            }
        }
    }
}
