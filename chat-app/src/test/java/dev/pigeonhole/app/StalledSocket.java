package dev.pigeonhole.app;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A WebSocket client on a bare TCP socket that completes the upgrade and then reads nothing, so
 * that what the server sends piles up: first in the kernel's buffers, then in the server's own
 * queue. Its receive buffer is made small before connecting, so the kernel holds little. Later
 * it may {@link #readUntilClose() start reading} to see how the server ended the connection.
 */
final class StalledSocket implements AutoCloseable {

    /** What reading to the end found: the text frames before the close, and the close frame, if one came. */
    record Ending(int textFrames, Optional<Integer> code, String reason) {
    }

    private static final int RECEIVE_BUFFER = 4096;
    private static final int TIMEOUT_MILLIS = 15_000;

    private final Socket socket;
    private final DataInputStream in;

    private StalledSocket(Socket socket, DataInputStream in) {
        this.socket = socket;
        this.in = in;
    }

    /** Upgrades {@code GET /api/live} with the token in the query; fails unless the server answers 101. */
    static StalledSocket open(int port, String token) throws IOException {
        Socket socket = new Socket();
        try {
            socket.setReceiveBufferSize(RECEIVE_BUFFER);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            socket.connect(new InetSocketAddress("127.0.0.1", port), TIMEOUT_MILLIS);
            byte[] nonce = new byte[16];
            ThreadLocalRandom.current().nextBytes(nonce);
            String request = "GET /api/live?token=" + token + " HTTP/1.1\r\n"
                    + "Host: 127.0.0.1:" + port + "\r\n"
                    + "Upgrade: websocket\r\n"
                    + "Connection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce) + "\r\n"
                    + "Sec-WebSocket-Version: 13\r\n\r\n";
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            String head = readHead(in);
            if (!head.startsWith("HTTP/1.1 101")) {
                throw new IOException("the upgrade was refused: " + head);
            }
            return new StalledSocket(socket, in);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Reads every frame the server sent until its close frame, or the end of the stream if it
     * hung up without one (possibly in the middle of a frame).
     */
    Ending readUntilClose() throws IOException {
        int texts = 0;
        while (true) {
            try {
                Optional<Ending> ending = readFrame(texts);
                if (ending.isPresent()) {
                    return ending.get();
                }
                texts++;
            } catch (EOFException e) {
                return new Ending(texts, Optional.empty(), "");
            }
        }
    }

    /** One frame: empty for a text frame, the ending for a close frame; other frames are skipped. */
    private Optional<Ending> readFrame(int textsBefore) throws IOException {
        while (true) {
            int first = in.readUnsignedByte();
            int opcode = first & 0x0F;
            int second = in.readUnsignedByte();
            long length = second & 0x7F;
            if (length == 126) {
                length = in.readUnsignedShort();
            } else if (length == 127) {
                length = in.readLong();
            }
            if ((second & 0x80) != 0) {
                throw new IOException("a server frame must not be masked");
            }
            byte[] payload = new byte[Math.toIntExact(length)];
            in.readFully(payload);
            if (opcode == 0x1) {
                return Optional.empty();
            }
            if (opcode == 0x8) {
                Optional<Integer> code = payload.length >= 2
                        ? Optional.of(((payload[0] & 0xFF) << 8) | (payload[1] & 0xFF))
                        : Optional.empty();
                String reason = payload.length > 2
                        ? new String(payload, 2, payload.length - 2, StandardCharsets.UTF_8)
                        : "";
                return Optional.of(new Ending(textsBefore, code, reason));
            }
            // Continuations, pings and pongs say nothing about how it ended.
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** The response head, read byte by byte so that no frame after it is taken along. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int next = in.read();
            if (next < 0) {
                throw new EOFException("the server hung up during the upgrade: " + head.toString(StandardCharsets.US_ASCII));
            }
            head.write(next);
            matched = next == end[matched] ? matched + 1 : (next == '\r' ? 1 : 0);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }
}
