package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

import io.vertx.core.buffer.Buffer;

/** How a body of unknown length's room grows, and the heap body that holds it. */
class BodyRoomTests {

    @Test
    void roomStartsAt16KibAndDoublesUpToTheLimit() {
        assertEquals(16_384, BodyRoom.grown(0, 1, 1_000_000));
        assertEquals(32_768, BodyRoom.grown(16_384, 16_385, 1_000_000));
        assertEquals(131_072, BodyRoom.grown(65_536, 70_000, 1_000_000));
        assertEquals(150_000, BodyRoom.grown(131_072, 131_073, 150_000), "never past the limit");
        assertEquals(1_000, BodyRoom.grown(0, 10, 1_000), "a limit under 16 KiB is the whole room");
        assertEquals(90_000, BodyRoom.grown(16_384, 90_000, 1_000_000), "a chunk larger than double gets its size");
    }

    @Test
    void aGrowingHeapBodyKeepsEveryByteAndHandsOverOnlyWhatArrived() {
        HeapBody body = new HeapBody();
        assertEquals(0, body.room());
        byte[] expected = new byte[20_000];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = (byte) (i * 7);
        }
        body.grow(BodyRoom.grown(body.room(), 10_000, 100_000));
        body.add(Buffer.buffer(Arrays.copyOfRange(expected, 0, 10_000)));
        body.grow(BodyRoom.grown(body.room(), 20_000, 100_000));
        body.add(Buffer.buffer(Arrays.copyOfRange(expected, 10_000, 20_000)));
        assertEquals(32_768, body.room());
        assertArrayEquals(expected, body.take());
    }

    @Test
    void aDeclaredHeapBodyGrowsToItsLengthAndIsHandedOverWithoutACopy() {
        HeapBody body = new HeapBody();
        body.grow(BodyRoom.grown(body.room(), 2, 3));
        body.add(Buffer.buffer(new byte[] { 1, 2 }));
        body.grow(BodyRoom.grown(body.room(), 3, 3));
        body.add(Buffer.buffer(new byte[] { 3 }));
        assertEquals(3, body.room(), "its room stops at the declared length");
        byte[] taken = body.take();
        assertArrayEquals(new byte[] { 1, 2, 3 }, taken);
    }
}
