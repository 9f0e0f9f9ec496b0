package io.webhookbuffer.ingress;

import java.util.Arrays;

import io.vertx.core.buffer.Buffer;

/**
 * A body read onto the heap as it arrives: straight into its final array when its length was declared, else into one
 * that grows ({@link BodyRoom}); never kept as Vert.x's chunks (their young-generation copies paused 80-130 ms).
 */
final class HeapBody implements BodyRoom {

    private static final byte[] NONE = new byte[0];

    private byte[] bytes;
    private int size;

    /** {@code declaredLength} bytes of room, or none yet when it is -1 (a body of unknown length). */
    HeapBody(long declaredLength) {
        this.bytes = declaredLength >= 0 ? new byte[(int) declaredLength] : NONE;
    }

    @Override
    public int room() {
        return bytes.length;
    }

    @Override
    public void grow(int capacity) {
        bytes = Arrays.copyOf(bytes, capacity);
    }

    @Override
    public void add(Buffer chunk) {
        chunk.getBytes(bytes, size);
        size += chunk.length();
    }

    /** The body, once: its array itself when it is full, else a copy of what arrived. */
    byte[] take() {
        byte[] body = size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
        bytes = NONE;
        return body;
    }
}
