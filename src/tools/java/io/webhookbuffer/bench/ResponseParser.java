package io.webhookbuffer.bench;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.function.IntConsumer;

/**
 * Reads HTTP/1.1 responses off one keep-alive connection, byte by byte as they arrive in any split, and keeps only
 * what the benchmark needs: each response's status. Bodies are skipped by {@code Content-Length} or chunked
 * framing; a 1xx, 204 or 304 has none. A response framed by closing the connection cannot share it with the next
 * request, so it is refused ({@link IllegalStateException}), like any malformed head.
 */
final class ResponseParser {

    /** Longest response head accepted: the buffer's replies are a few hundred bytes. */
    static final int MAX_HEAD_BYTES = 16 * 1024;

    private enum State {
        HEAD, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS
    }

    private State state = State.HEAD;
    private final StringBuilder line = new StringBuilder(128);
    private int headBytes;
    private int status;
    private long contentLength = -1;
    private boolean chunked;
    private long remaining;
    private int completed = -1;

    /**
     * Consumes {@code length} bytes from {@code offset}. Calls {@code onResponse} with the status of every response
     * completed by them, in order.
     */
    void feed(byte[] bytes, int offset, int length, IntConsumer onResponse) {
        int i = offset;
        int end = offset + length;
        while (i < end) {
            switch (state) {
                case HEAD, CHUNK_SIZE, TRAILERS, CHUNK_END -> {
                    byte b = bytes[i++];
                    if (state == State.HEAD && ++headBytes > MAX_HEAD_BYTES) {
                        throw new IllegalStateException("response head longer than " + MAX_HEAD_BYTES + " bytes");
                    }
                    if (b == '\n') {
                        endOfLine();
                    } else if (b != '\r') {
                        line.append((char) (b & 0xff));
                    }
                }
                case BODY, CHUNK_DATA -> {
                    int take = (int) Math.min(remaining, end - i);
                    i += take;
                    remaining -= take;
                    if (remaining == 0) {
                        if (state == State.BODY) {
                            complete();
                        } else {
                            state = State.CHUNK_END;
                        }
                    }
                }
            }
            if (completed >= 0) {
                int s = completed;
                completed = -1;
                onResponse.accept(s);
            }
        }
    }

    /** Convenience for tests and small inputs. */
    void feed(String text, IntConsumer onResponse) {
        byte[] b = text.getBytes(StandardCharsets.ISO_8859_1);
        feed(b, 0, b.length, onResponse);
    }

    /** True between responses: nothing of a next one has arrived. */
    boolean idle() {
        return state == State.HEAD && headBytes == 0;
    }

    private void endOfLine() {
        String text = line.toString();
        line.setLength(0);
        switch (state) {
            case HEAD -> headLine(text);
            case CHUNK_SIZE -> {
                int semicolon = text.indexOf(';');
                String hex = (semicolon < 0 ? text : text.substring(0, semicolon)).strip();
                long size;
                try {
                    size = Long.parseLong(hex, 16);
                } catch (NumberFormatException e) {
                    throw new IllegalStateException("bad chunk size '" + text + "'");
                }
                if (size < 0) {
                    throw new IllegalStateException("bad chunk size '" + text + "'");
                }
                if (size == 0) {
                    state = State.TRAILERS;
                } else {
                    remaining = size;
                    state = State.CHUNK_DATA;
                }
            }
            case CHUNK_END -> {
                if (!text.isEmpty()) {
                    throw new IllegalStateException("chunk not followed by CRLF");
                }
                state = State.CHUNK_SIZE;
            }
            case TRAILERS -> {
                if (text.isEmpty()) {
                    complete();
                }
            }
            default -> throw new IllegalStateException("line ended in state " + state);
        }
    }

    /** One line of a response head: the status line, a header, or the blank line that ends the head. */
    private void headLine(String text) {
        if (status == 0) {
            statusLine(text);
        } else if (!text.isEmpty()) {
            headerLine(text);
        } else {
            endOfHead();
        }
    }

    private void statusLine(String text) {
        // Status line: HTTP/1.1 202 Accepted
        if (!text.startsWith("HTTP/1.") || text.length() < 12 || text.charAt(8) != ' ') {
            throw new IllegalStateException("not an HTTP/1.x status line: '" + text + "'");
        }
        try {
            status = Integer.parseInt(text.substring(9, 12));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("bad status in '" + text + "'");
        }
    }

    /** Keeps the two headers that frame the body: Content-Length and a chunked Transfer-Encoding. */
    private void headerLine(String text) {
        int colon = text.indexOf(':');
        if (colon > 0) {
            String name = text.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            String value = text.substring(colon + 1).strip();
            if (name.equals("content-length")) {
                try {
                    contentLength = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    throw new IllegalStateException("bad Content-Length '" + value + "'");
                }
            } else if (name.equals("transfer-encoding") && value.toLowerCase(Locale.ROOT).contains("chunked")) {
                chunked = true;
            }
        }
    }

    /** The blank line: the head is complete; the body follows by its framing, or there is none. */
    private void endOfHead() {
        if (status < 200 || status == 204 || status == 304) {
            complete();
        } else if (chunked) {
            state = State.CHUNK_SIZE;
        } else if (contentLength > 0) {
            remaining = contentLength;
            state = State.BODY;
        } else if (contentLength == 0) {
            complete();
        } else {
            throw new IllegalStateException("response " + status + " has neither Content-Length nor chunked framing");
        }
    }

    private void complete() {
        // A 1xx is an interim answer; the final one follows on the same request.
        completed = status >= 200 ? status : -1;
        state = State.HEAD;
        headBytes = 0;
        status = 0;
        contentLength = -1;
        chunked = false;
        remaining = 0;
    }
}
