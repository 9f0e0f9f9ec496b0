package io.webhookbuffer.testsupport;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import io.quarkus.arc.Arc;
import io.webhookbuffer.ingress.EdgePort;

/**
 * A bare HTTP/1.1 client on a socket, for what an HTTP library will not do: send a request head without its body,
 * keep sending chunks past a limit, send a broken {@code Host}, go quiet mid-request; and see whether the server
 * answered before the body was sent and whether it closed the connection.
 */
public final class RawHttp implements AutoCloseable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawHttp(int port) throws IOException {
        this(port, 0);
    }

    private RawHttp(int port, int localPort) throws IOException {
        socket = new Socket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress("127.0.0.1", localPort));
        socket.connect(new InetSocketAddress("127.0.0.1", port));
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** A connection to the app under test, on its webhook port ({@link EdgePort}, the one senders reach). */
    public static RawHttp open() throws IOException {
        return new RawHttp(Arc.container().instance(EdgePort.class).get().port());
    }

    /** A connection to the webhook port from 127.0.0.1:{@code localPort} (a client port of the test's choosing). */
    public static RawHttp from(int localPort) throws IOException {
        return new RawHttp(Arc.container().instance(EdgePort.class).get().port(), localPort);
    }

    /** A connection to a service on 127.0.0.1:{@code port} (a packaged one, in an *IT test). */
    public static RawHttp open(int port) throws IOException {
        return new RawHttp(port);
    }

    /** A request head ending in the blank line: {@code head("POST /webhook/t", "Host: x", "Content-Length: 9")}. */
    public static String head(String requestLine, String... headers) {
        StringBuilder text = new StringBuilder(requestLine).append(" HTTP/1.1\r\n");
        for (String header : headers) {
            text.append(header).append("\r\n");
        }
        return text.append("\r\n").toString();
    }

    public RawHttp send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawHttp send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** One chunk of a chunked body. */
    public RawHttp chunk(byte[] data) throws IOException {
        ByteArrayOutputStream framed = new ByteArrayOutputStream();
        framed.writeBytes((Integer.toHexString(data.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        framed.writeBytes(data);
        framed.writeBytes("\r\n".getBytes(StandardCharsets.US_ASCII));
        return send(framed.toByteArray());
    }

    /** Sends no more (a FIN): the server sees the end of the request stream, the answer can still come. */
    public RawHttp endOutput() throws IOException {
        socket.shutdownOutput();
        return this;
    }

    /**
     * The next answer, read within {@code within}; fails with {@link SocketTimeoutException} when none comes (the
     * server is waiting for more of the request).
     */
    public Answer answer(Duration within) throws IOException {
        socket.setSoTimeout((int) within.toMillis());
        String statusLine = line();
        if (statusLine == null) {
            throw new IOException("the connection closed without an answer");
        }
        Map<String, String> headers = new TreeMap<>();
        List<String> lines = new ArrayList<>();
        for (String line = line(); line != null && !line.isEmpty(); line = line()) {
            lines.add(line);
            int colon = line.indexOf(':');
            headers.merge(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip(),
                    (a, b) -> a + ", " + b);
        }
        String length = headers.get("content-length");
        byte[] body = in.readNBytes(length == null ? 0 : Integer.parseInt(length));
        return new Answer(Integer.parseInt(statusLine.split(" ")[1]), headers,
                new String(body, StandardCharsets.UTF_8), statusLine, List.copyOf(lines));
    }

    /**
     * Whether the server closed the connection (end of stream, or a reset) within {@code within}; whatever else it
     * sends meanwhile is skipped.
     */
    public boolean closedWithin(Duration within) throws IOException {
        long deadline = System.nanoTime() + within.toNanos();
        byte[] skip = new byte[8192];
        while (true) {
            long left = (deadline - System.nanoTime()) / 1_000_000;
            if (left <= 0) {
                return false;
            }
            socket.setSoTimeout((int) left);
            try {
                if (in.read(skip) < 0) {
                    return true;
                }
            } catch (SocketTimeoutException e) {
                return false;
            } catch (SocketException e) {
                return true; // reset
            }
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0; b = in.read()) {
            if (b == '\n') {
                String text = line.toString(StandardCharsets.ISO_8859_1);
                return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /**
     * Status, headers (names in lower case) and body of one answer; and as sent: the status line and the header lines
     * in their order.
     */
    public record Answer(int status, Map<String, String> headers, String body, String statusLine,
            List<String> headerLines) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }
}
