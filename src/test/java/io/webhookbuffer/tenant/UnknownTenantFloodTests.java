package io.webhookbuffer.tenant;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.ingress.EdgePort;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * Thousands of random unknown tenant ids at 64 connections against the running app ({@link TenantFloodProfile}
 * shrinks the budget): the tenant queries that reach PostgreSQL stay within the miss budget, an id that was not looked
 * up is never answered 404, readiness stays UP throughout, and a genuine signed sender to a cached tenant keeps
 * getting 202.
 */
@QuarkusTest
@TestProfile(TenantFloodProfile.class)
class UnknownTenantFloodTests {

    private static final int FLOOD = Integer.getInteger("flood.requests", 3000);
    private static final int CONNECTIONS = Integer.getInteger("flood.connections", 64);

    @Inject
    TenantDirectory directory;

    @Inject
    TenantRepository repository;

    @Inject
    EdgePort edge;

    @Test
    void aFloodOfUnknownIdsCostsPostgresOnlyTheMissBudget() throws Exception {
        String known = tenant().provision();
        // Cached the way traffic caches it, without a commit: readiness must find its own way to the database.
        directory.find(known).toCompletableFuture().get(5, TimeUnit.SECONDS);
        long queriesBefore = repository.lookups();

        TenantFlood.Result result;
        try (TenantFlood flood = new TenantFlood(edge.port())) {
            result = flood.run(FLOOD, CONNECTIONS, known, TestTenants.DEFAULT_SECRET, Duration.ofMillis(50));
        }
        long queries = repository.lookups() - queriesBefore;
        System.out.printf("flood of %d unknown ids over %d connections in %d ms: answers %s, tenant queries %d, "
                + "readiness not-200 %d of %d, genuine %d sent, p99 %d us%n", FLOOD, CONNECTIONS,
                result.elapsed().toMillis(), result.floodAnswers(), queries, result.readinessFlips(),
                result.readiness().size(), result.genuineStatuses().size(), result.genuineP99Micros());

        assertEquals(0, result.transportErrors(), "every flood request answered");
        long bound = TenantFloodProfile.MISSES_PER_SECOND // the bucket's burst
                + (long) Math.ceil(result.elapsed().toMillis() / 1000.0 * TenantFloodProfile.MISSES_PER_SECOND)
                + TenantFloodProfile.MISS_CONCURRENCY;
        assertTrue(queries <= bound, "tenant queries " + queries + " within the budget " + bound);
        int notFound = result.count("404 unknown_tenant");
        assertTrue(notFound <= queries, "a 404 only for an id looked up: " + notFound + " 404s, " + queries + " queries");
        assertEquals(FLOOD, notFound + result.count("503 lookup_busy"), "every answer 404 or 503 lookup_busy: "
                + result.floodAnswers());
        assertTrue(result.readiness().size() >= 5, "readiness polled during the flood");
        assertEquals(0, result.readinessFlips(), "readiness UP throughout: " + result.readiness());
        assertTrue(!result.genuineStatuses().isEmpty() && result.genuineStatuses().stream().allMatch(s -> s == 202),
                "the genuine sender got 202 throughout: " + result.genuineStatuses());
    }
}
