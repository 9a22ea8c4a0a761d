package dev.pigeonhole.adapter.http;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/** A {@code text/event-stream} read as the standard reads it: fields up to a blank line make one event. */
final class ServerSentEvents {

    /** What the stream carries, as it arrives. */
    interface Listener {

        /** One event; {@code name} is "message" unless the event named itself, {@code id} null if it had none. */
        void onEvent(long nanos, String name, String data, String id);

        void onComment();
    }

    private ServerSentEvents() {
    }

    /** Reads until the stream ends. */
    static void read(InputStream body, Listener listener) throws IOException {
        String name = "message";
        String id = null;
        StringBuilder data = new StringBuilder();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                long now = System.nanoTime();
                if (line.isEmpty()) {
                    // An event without data (such as the retry hint alone) is no event.
                    if (!data.isEmpty()) {
                        listener.onEvent(now, name, data.toString(), id);
                    }
                    name = "message";
                    id = null;
                    data.setLength(0);
                } else if (line.startsWith(":")) {
                    listener.onComment();
                } else {
                    int colon = line.indexOf(':');
                    String field = colon < 0 ? line : line.substring(0, colon);
                    String value = colon < 0 ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
                    switch (field) {
                        case "event" -> name = value;
                        case "id" -> id = value;
                        case "data" -> data.append(data.isEmpty() ? "" : "\n").append(value);
                        default -> { } // retry, and anything unknown, as the standard says
                    }
                }
            }
        }
    }
}
