package io.webhookbuffer.tenant;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import jakarta.inject.Inject;

import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.ingress.EdgePort;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * Thousands of random unknown tenant ids at 64 connections against the running app ({@link TenantFloodProfile}
 * shrinks the budget): the tenant queries that reach PostgreSQL stay within the miss budget, an id that was not looked
 * up is never answered 404, readiness stays UP throughout, and a genuine signed sender to a cached tenant keeps
 * getting 202. Before the flood (the tests run in order, so no tenant is cached yet and no background refresh can
 * add a query), the negative cache and the hard ceiling are checked by the queries they save.
 */
@QuarkusTest
@TestProfile(TenantFloodProfile.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UnknownTenantFloodTests {

    private static final int FLOOD = Integer.getInteger("flood.requests", 3000);
    private static final int CONNECTIONS = Integer.getInteger("flood.connections", 64);

    @Inject
    TenantDirectory directory;

    @Inject
    TenantRepository repository;

    @Inject
    EdgePort edge;

    /** An id found unknown is remembered so for {@code buffer.tenants.negative-cache-ttl} (2 s): one query, not five. */
    @Test
    @Order(1)
    void anUnknownIdAskedAgainWithinTheNegativeCacheTtlCostsNoSecondQuery() throws IOException {
        String id = "unknown-" + UUID.randomUUID();
        long before = repository.lookups();
        for (int i = 0; i < 5; i++) {
            try (RawHttp http = RawHttp.open(edge.port())) {
                http.send("POST /webhook/" + id + " HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Signature: " + "0".repeat(64)
                        + "\r\nContent-Length: 2\r\n\r\n{}");
                RawHttp.Answer answer = http.answer(Duration.ofSeconds(10));
                assertEquals(404, answer.status(), answer.body());
            }
        }
        assertEquals(1, repository.lookups() - before, "one query for five requests to one unknown id");
    }

    /** A Content-Length over the hard ceiling (25M) is 413 at once: no tenant may take it, so none is looked up. */
    @Test
    @Order(2)
    void aContentLengthOverTheCeilingIsRefusedWithoutALookup() throws IOException {
        long before = repository.lookups();
        try (RawHttp http = RawHttp.open(edge.port())) {
            http.send("POST /webhook/unknown-" + UUID.randomUUID() + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + "Content-Length: " + (25L * 1024 * 1024 + 1) + "\r\n\r\n");
            RawHttp.Answer answer = http.answer(Duration.ofSeconds(10));
            assertEquals(413, answer.status(), answer.body());
            assertTrue(answer.body().contains("payload_too_large"), answer.body());
        }
        assertEquals(0, repository.lookups() - before, "no tenant query");
    }

    @Test
    @Order(3)
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
