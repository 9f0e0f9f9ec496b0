package io.webhookbuffer.queue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/** The storage guard's level ({@link QueuedBytes#level}): max-min fair, largest backlogs first, never below a share. */
class StorageLevelTests {

    @Test
    void belowTheCapacityNobodyIsCut() {
        assertEquals(Long.MAX_VALUE, QueuedBytes.level(new long[] {10, 20, 30}, 60));
        assertEquals(Long.MAX_VALUE, QueuedBytes.level(new long[] {}, 1));
    }

    @Test
    void pastItTheLargestBacklogIsCutFirst() {
        // 10 + 20 + 40 = 70 > 60: the level at which 10 + 20 + level = 60 is 30, so only the 40 is above it
        assertEquals(30, QueuedBytes.level(new long[] {40, 10, 20}, 60));
        // two large ones share what the small one leaves
        assertEquals(25, QueuedBytes.level(new long[] {10, 100, 100}, 60));
    }

    @Test
    void theLevelIsNeverBelowAnEqualShareNorZero() {
        Random random = new Random(42);
        for (int run = 0; run < 1_000; run++) {
            long[] queued = new long[1 + random.nextInt(20)];
            for (int i = 0; i < queued.length; i++) {
                queued[i] = random.nextInt(1_000);
            }
            long capacity = 1 + random.nextInt(5_000);
            long level = QueuedBytes.level(queued, capacity);
            assertTrue(level >= Math.max(1, capacity / queued.length), "level " + level + " below the share");
            if (level != Long.MAX_VALUE) {
                long cut = 0;
                for (long q : queued) {
                    cut += Math.min(q, level);
                }
                assertTrue(cut <= capacity && cut > capacity - queued.length, "cut to the level, they fill it: " + cut);
            }
        }
    }
}
