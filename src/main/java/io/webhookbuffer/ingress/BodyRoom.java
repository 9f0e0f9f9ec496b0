package io.webhookbuffer.ingress;

import io.vertx.core.buffer.Buffer;

/**
 * Where a request's body waits as it arrives ({@link HeapBody}, or {@link CheckedBody} off the heap until it
 * verifies), and how the room for a body of unknown length grows: doubling from {@link #FIRST} up to the tenant's
 * limit. {@link IngressGate} takes the replica's budget for each growth before it happens, so the budget counts the
 * room held (up to twice the bytes that arrived), not only the bytes.
 */
interface BodyRoom {

    /** The first room of a body of unknown length. */
    int FIRST = 16 * 1024;

    /** Bytes of room held now; -1 when the bytes are not kept at all (the headers decided already). */
    int room();

    /** Grows the room to {@code capacity} bytes (more than {@link #room()}, its budget taken). */
    void grow(int capacity);

    /** The next chunk, which fits the room. */
    void add(Buffer chunk);

    /** The room that holds {@code needed} bytes: at least double {@code room} and {@link #FIRST}, never past {@code limit}. */
    static int grown(int room, int needed, int limit) {
        return (int) Math.min(limit, Math.max(needed, Math.max(FIRST, 2L * room)));
    }
}
