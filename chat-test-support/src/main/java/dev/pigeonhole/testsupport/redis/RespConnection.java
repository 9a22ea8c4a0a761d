package dev.pigeonhole.testsupport.redis;

import javax.net.ssl.SSLSocketFactory;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * One connection to one Redis node, speaking Redis's protocol (RESP2) itself: a command goes out
 * as an array of bulk strings, and its reply comes back as a {@code String}, a {@code Long}, a
 * {@code List<Object>} of those, or {@code null}.
 *
 * <p>The fixture needs a handful of administrative commands and no more, so it speaks the protocol
 * rather than use Jedis or Lettuce: those are the clients the tests compare, and a fixture built
 * on one of them would see Redis through the thing under test.
 */
final class RespConnection implements AutoCloseable {

    private static final byte[] CRLF = {'\r', '\n'};

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /**
     * Connects to the node at {@code redis://[[user]:password@]host:port[/db]} ({@code rediss://}
     * for TLS), signs in and selects the database the URL names, and names the connection
     * {@code clientName} in {@code CLIENT LIST}.
     */
    static RespConnection open(URI node, Duration timeout, String clientName) {
        return open(node, timeout, clientName, null);
    }

    /** As {@link #open(URI, Duration, String)}, a {@code rediss://} node through {@code tls} (null: the JDK's default). */
    static RespConnection open(URI node, Duration timeout, String clientName, SSLSocketFactory tls) {
        int millis = (int) timeout.toMillis();
        Socket socket = null;
        try {
            socket = "rediss".equals(node.getScheme())
                    ? (tls == null ? SSLSocketFactory.getDefault() : tls).createSocket() : new Socket();
            socket.connect(new InetSocketAddress(node.getHost(), node.getPort() == -1 ? 6379 : node.getPort()), millis);
            socket.setSoTimeout(millis);
            socket.setTcpNoDelay(true);
            RespConnection connection = new RespConnection(socket);
            connection.signIn(node);
            connection.call("CLIENT", "SETNAME", clientName);
            return connection;
        } catch (IOException e) {
            closeQuietly(socket);
            throw new UncheckedIOException("cannot reach Redis at " + node.getHost() + ":" + node.getPort(), e);
        } catch (RuntimeException e) {
            closeQuietly(socket);
            throw e;
        }
    }

    /** Runs one command and returns its reply; an error reply is thrown as an {@link IllegalStateException}. */
    Object call(String... command) {
        send(command);
        Object reply = read();
        if (reply instanceof ErrorReply error) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + error.text());
        }
        return reply;
    }

    /** Sends a command without waiting for its reply, for a connection that then only listens (SUBSCRIBE). */
    void send(String... command) {
        if (command.length == 0) {
            throw new IllegalArgumentException("a command has at least a name");
        }
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        frame.writeBytes(("*" + command.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        for (String word : command) {
            byte[] bytes = word.getBytes(StandardCharsets.UTF_8);
            frame.writeBytes(("$" + bytes.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
            frame.writeBytes(bytes);
            frame.writeBytes(CRLF);
        }
        try {
            out.write(frame.toByteArray());
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot send " + command[0] + " to Redis", e);
        }
    }

    /** The next reply on the connection; an error reply is returned as an {@link ErrorReply}, not thrown. */
    Object read() {
        try {
            return readReply();
        } catch (IOException e) {
            throw new UncheckedIOException("no reply from Redis", e);
        }
    }

    @Override
    public void close() {
        closeQuietly(socket);
    }

    /** An error Redis answered with, such as {@code NOAUTH Authentication required.} */
    record ErrorReply(String text) {
    }

    private void signIn(URI node) {
        String userInfo = node.getRawUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            String user = colon < 0 ? "" : decode(userInfo.substring(0, colon));
            String password = decode(colon < 0 ? userInfo : userInfo.substring(colon + 1));
            if (user.isEmpty()) {
                call("AUTH", password);
            } else {
                call("AUTH", user, password);
            }
        }
        String path = node.getPath();
        if (path != null && path.length() > 1) {
            call("SELECT", path.substring(1));
        }
    }

    private Object readReply() throws IOException {
        int type = in.read();
        if (type == -1) {
            throw new EOFException("Redis closed the connection");
        }
        String line = readLine();
        return switch (type) {
            case '+' -> line;
            case '-' -> new ErrorReply(line);
            case ':' -> Long.parseLong(line);
            case '$' -> bulk(Integer.parseInt(line));
            case '*' -> array(Integer.parseInt(line));
            default -> throw new IOException("not a RESP2 reply: '" + (char) type + line + "'");
        };
    }

    private String bulk(int length) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] bytes = in.readNBytes(length);
        if (bytes.length < length || in.read() != '\r' || in.read() != '\n') {
            throw new EOFException("Redis closed the connection within a reply");
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private List<Object> array(int count) throws IOException {
        if (count < 0) {
            return null;
        }
        List<Object> elements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            elements.add(readReply());
        }
        return elements;
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int next = in.read();
            if (next == -1) {
                throw new EOFException("Redis closed the connection within a reply");
            }
            if (previous == '\r' && next == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(next);
            previous = next;
        }
    }

    /** Undoes a URL's percent escapes; a plus stays a plus, as it does in the user part of a URL. */
    private static String decode(String text) {
        return URLDecoder.decode(text.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    private static void closeQuietly(Socket socket) {
        if (socket == null) {
            return;
        }
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing more to release.
        }
    }
}
