package io.webhookbuffer.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.junit.jupiter.api.Test;

/** Background tenant refreshes take turns: at most the limit in flight, the rest started in order as slots free. */
class RefreshLimiterTests {

    @Test
    void atMostTheLimitRunAndTheRestStartInOrderAsSlotsFree() {
        RefreshLimiter limiter = new RefreshLimiter(2);
        List<CompletableFuture<String>> started = new ArrayList<>();
        List<CompletableFuture<String>> results = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            results.add(limiter.submit(() -> {
                CompletableFuture<String> load = new CompletableFuture<>();
                started.add(load);
                return load;
            }));
        }
        assertEquals(2, started.size(), "only the limit starts");
        assertEquals(5, limiter.pending());

        started.get(0).complete("t0");
        assertEquals("t0", results.get(0).join());
        assertEquals(3, started.size(), "a freed slot starts the next one");

        started.get(1).completeExceptionally(new IllegalStateException("database down"));
        assertTrue(results.get(1).isCompletedExceptionally(), "a failed refresh reports its failure");
        assertEquals(4, started.size(), "and still frees its slot");

        started.get(2).complete("t2");
        started.get(3).complete("t3");
        started.get(4).complete("t4");
        assertEquals(List.of("t2", "t3", "t4"), results.subList(2, 5).stream().map(CompletableFuture::join).toList());
        assertEquals(0, limiter.pending());
    }

    @Test
    void aTaskThatThrowsFreesItsSlot() {
        RefreshLimiter limiter = new RefreshLimiter(1);
        CompletableFuture<String> failed = limiter.submit(() -> {
            throw new IllegalArgumentException("bad row");
        });
        assertTrue(failed.isCompletedExceptionally());
        CompletableFuture<String> next = limiter.submit(() -> CompletableFuture.completedFuture("ok"));
        assertEquals("ok", next.join());
        assertFalse(next.isCompletedExceptionally());
        assertEquals(0, limiter.pending());
    }
}
