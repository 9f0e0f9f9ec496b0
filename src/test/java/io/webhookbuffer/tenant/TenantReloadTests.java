package io.webhookbuffer.tenant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Test;

/**
 * The pure parts of the tenant cache: the spread of reload starts, the one future class, and how long a request waits
 * for a lookup.
 */
class TenantReloadTests {

    @Test
    void aReloadWaitsARandomPartOfAnEighthOfTheTtl() {
        Duration ttl = Duration.ofSeconds(60);

        assertEquals(0, TenantDirectory.reloadDelayMillis(ttl, () -> 0.0));
        assertEquals(3_750, TenantDirectory.reloadDelayMillis(ttl, () -> 0.5));
        long longest = TenantDirectory.reloadDelayMillis(ttl, () -> Math.nextDown(1.0));
        assertTrue(longest < 7_500 && longest >= 7_499, "just under an eighth of 60 s: " + longest);
    }

    @Test
    void aRequestWaitsForTheOriginsTurnAndAnswerToo() {
        Duration lookup = Duration.ofSeconds(2);
        assertEquals(lookup, TenantDirectory.requestDeadline(lookup, false, Duration.ofSeconds(1), Duration.ofSeconds(3)));
        assertEquals(Duration.ofSeconds(6),
                TenantDirectory.requestDeadline(lookup, true, Duration.ofSeconds(1), Duration.ofSeconds(3)),
                "origin pull-through on: the 3 s its answer is allowed and the 1 s its turn may take come on top");
    }

    @Test
    void theCacheHoldsPlainFuturesWhateverCompletedThem() throws Exception {
        CompletableFuture<String> subclassed = new CompletableFuture<>() {
        };
        CompletableFuture<String> plain = TenantDirectory.plain(subclassed);
        subclassed.complete("tenant");

        assertSame(CompletableFuture.class, plain.getClass());
        assertEquals("tenant", plain.get());
        assertSame(CompletableFuture.class, plain.thenApply(String::length).getClass());
    }

    @Test
    void aFailedLoadStaysAFailure() {
        CompletableFuture<String> subclassed = new CompletableFuture<>() {
        };
        IllegalStateException cause = new IllegalStateException("database down");
        CompletableFuture<String> plain = TenantDirectory.plain(subclassed);
        subclassed.completeExceptionally(cause);

        ExecutionException thrown = Assertions.assertThrows(ExecutionException.class, plain::get);
        assertSame(cause, thrown.getCause());
    }
}
