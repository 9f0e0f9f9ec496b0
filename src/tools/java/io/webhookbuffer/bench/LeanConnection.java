package io.webhookbuffer.bench;

import java.io.IOException;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.net.NetSocket;

/**
 * One keep-alive HTTP/1.1 connection of the load generator: one request at a time, written as a single pre-encoded
 * buffer, and its answer reduced to the status. It exists because the generator shares the two cores with the
 * buffer it measures: a full HTTP client (request objects, header maps, futures per request) cost several times
 * what this does per request (docs/performance.md). Used only on the event loop that opened the socket.
 */
final class LeanConnection {

    /** Called once per request: a status, or a failure (status 0). */
    interface Answer {
        void answered(int status, Throwable failure);
    }

    private final NetSocket socket;
    private final ResponseParser parser = new ResponseParser();
    private Answer waiting;
    private long sentNanos;
    private boolean closed;

    LeanConnection(NetSocket socket, Consumer<LeanConnection> onClose) {
        this.socket = socket;
        socket.handler(buffer -> {
            byte[] bytes = buffer.getBytes();
            try {
                parser.feed(bytes, 0, bytes.length, this::answered);
            } catch (IllegalStateException e) {
                fail(e);
                socket.close();
            }
        });
        socket.exceptionHandler(this::fail);
        socket.closeHandler(v -> {
            closed = true;
            fail(new IOException("connection closed by the server"));
            onClose.accept(this);
        });
    }

    boolean closed() {
        return closed;
    }

    /** Writes the request; {@code answer} is called when its response has been read, or the connection failed. */
    void send(Buffer request, Answer answer) {
        if (waiting != null) {
            throw new IllegalStateException("a request is already in flight on this connection");
        }
        if (closed) {
            answer.answered(0, new IOException("connection closed"));
            return;
        }
        waiting = answer;
        sentNanos = System.nanoTime();
        socket.write(request);
    }

    /** Fails and closes the connection when its request has waited longer than {@code timeoutNanos}. */
    void expire(long nowNanos, long timeoutNanos) {
        if (waiting != null && nowNanos - sentNanos > timeoutNanos) {
            fail(new TimeoutException("no answer within " + timeoutNanos / 1_000_000 + " ms"));
            socket.close();
        }
    }

    void close() {
        closed = true;
        socket.close();
    }

    private void answered(int status) {
        Answer a = waiting;
        waiting = null;
        if (a == null) {
            throw new IllegalStateException("a response arrived with no request in flight");
        }
        a.answered(status, null);
    }

    private void fail(Throwable failure) {
        Answer a = waiting;
        waiting = null;
        if (a != null) {
            a.answered(0, failure);
        }
    }
}
