package io.webhookbuffer.tenant;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

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
 * Thousands of random unknown tenant ids at 64 connections against the running app: an id that is no tenant is
 * answered 404 from memory (the replica knows its tenants' ids), so the flood costs PostgreSQL no query at all,
 * readiness stays UP throughout, and genuine signed senders keep getting 202, whether their tenant is cached or not.
 */
@QuarkusTest
@TestProfile(TenantFloodProfile.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UnknownTenantFloodTests {

    private static final int FLOOD = Integer.getInteger("flood.requests", 3000);
    private static final int CONNECTIONS = Integer.getInteger("flood.connections", 64);
    private static final int UNCACHED_TENANTS = 20;

    @Inject
    TenantDirectory directory;

    @Inject
    TenantRepository repository;

    @Inject
    EdgePort edge;

    /** An id that is no tenant is answered 404 from memory: no query, however often and however many. */
    @Test
    @Order(1)
    void anUnknownIdCostsNoQuery() throws IOException {
        String id = "unknown-" + UUID.randomUUID();
        long before = repository.lookups();
        for (int i = 0; i < 10; i++) {
            try (RawHttp http = RawHttp.open(edge.port())) {
                http.send("POST /webhook/" + (i < 5 ? id : "unknown-" + UUID.randomUUID()) + " HTTP/1.1\r\n"
                        + "Host: 127.0.0.1\r\nX-Signature: " + "0".repeat(64) + "\r\nContent-Length: 2\r\n\r\n{}");
                RawHttp.Answer answer = http.answer(Duration.ofSeconds(10));
                assertEquals(404, answer.status(), answer.body());
            }
        }
        assertEquals(0, repository.lookups() - before, "no query for ten requests to six unknown ids");
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
    void aFloodOfUnknownIdsCostsPostgresNothing() throws Exception {
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
        // The only queries are the known tenant's reloads: the change poll sees its provisioning in up to three looks
        // (every 5 s, each reaching 10 s back). None is the flood's, whatever its size.
        assertTrue(queries <= 3, "no tenant query for the flood's ids: " + queries + " queries");
        assertEquals(FLOOD, result.count("404 unknown_tenant"), "every answer 404: " + result.floodAnswers());
        assertTrue(result.readiness().size() >= 5, "readiness polled during the flood");
        assertEquals(0, result.readinessFlips(), "readiness UP throughout: " + result.readiness());
        assertTrue(!result.genuineStatuses().isEmpty() && result.genuineStatuses().stream().allMatch(s -> s == 202),
                "the genuine sender got 202 throughout: " + result.genuineStatuses());
    }

    /**
     * Tenants that exist in PostgreSQL but are not cached here (stored before a restart, or expired while idle) are
     * never refused because of lookups for ids that do not exist: each gets its signed event answered 202 in the middle
     * of a flood of random unknown ids. (Before: the miss budget was one global, first-come queue, and the flood took
     * every turn, so these tenants' first events were answered 503 lookup_busy.)
     */
    @Test
    @Order(4)
    void tenantsNotCachedAreNeverRefusedForAFloodOfUnknownIds() throws Exception {
        List<String> uncached = new ArrayList<>();
        for (int i = 0; i < UNCACHED_TENANTS; i++) {
            uncached.add(tenant().provision()); // provisioned, never looked up: held by no cache of this replica
        }
        TenantFlood.Result result;
        try (TenantFlood flood = new TenantFlood(edge.port())) {
            result = flood.run(FLOOD * 2, CONNECTIONS, uncached, TestTenants.DEFAULT_SECRET, Duration.ofMillis(20));
        }
        Map<Integer, Long> statuses = result.genuineStatuses().stream()
                .collect(Collectors.groupingBy(s -> s, TreeMap::new, Collectors.counting()));
        System.out.printf("flood of %d unknown ids over %d connections in %d ms: answers %s; %d signed events to %d "
                + "uncached tenants, by status: %s%n", FLOOD * 2, CONNECTIONS, result.elapsed().toMillis(),
                result.floodAnswers(), result.genuineStatuses().size(), UNCACHED_TENANTS, statuses);
        assertEquals(0, result.transportErrors(), "every flood request answered");
        assertTrue(result.genuineStatuses().size() >= UNCACHED_TENANTS,
                "each uncached tenant got an event during the flood: " + result.genuineStatuses().size());
        assertEquals(Map.of(202, (long) result.genuineStatuses().size()), statuses,
                "every signed event to an existing tenant answered 202");
    }
}
