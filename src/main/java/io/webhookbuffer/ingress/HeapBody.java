package io.webhookbuffer.ingress;

import java.util.Arrays;

import io.vertx.core.buffer.Buffer;

/**
 * A body read onto the heap as it arrives, into an array that grows with the bytes ({@link BodyRoom}) up to the
 * declared length or the tenant's limit; never kept as Vert.x's chunks (their young-generation copies paused
 * 80-130 ms). A declared body ends in an array of exactly its length, so {@link #take()} does not copy it.
 */
final class HeapBody implements BodyRoom {

    private static final byte[] NONE = new byte[0];

    private byte[] bytes = NONE;
    private int size;

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
