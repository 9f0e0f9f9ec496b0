package io.webhookbuffer.health;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.testsupport.InjectProxy;
import io.webhookbuffer.testsupport.InjectRedisProxy;
import io.webhookbuffer.testsupport.ProxiedDependenciesProfile;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.TcpProxy;

/**
 * The probes tell the truth: readiness goes DOWN while PostgreSQL is unreachable and UP when it is back; Redis down is
 * reported (health data, the dependencies group, buffer_redis_fallback) without failing readiness; liveness and
 * startup stay UP through both. Both dependencies sit behind proxies the test cuts.
 */
@QuarkusTest
@TestProfile(ProxiedDependenciesProfile.class)
class HealthTests {

    private static final Duration PATIENCE = Duration.ofSeconds(30);
    private static final String SNAPSHOT_AGE = MetricNames.BACKLOG_SNAPSHOT_AGE.prometheus();
    /** Two snapshot intervals missed. */
    private static final double STALE_SECONDS = 6;
    /** Our check among the readiness checks (Quarkus adds "Graceful Shutdown", quarkus.shutdown.delay-enabled). */
    private static final String POSTGRESQL = "checks.find { it.name == 'postgresql' }";

    @InjectProxy
    TcpProxy postgres;

    @InjectRedisProxy
    TcpProxy redis;

    @AfterEach
    void restore() throws Exception {
        postgres.restore();
        redis.restore();
    }

    @Test
    void readinessFollowsPostgresAndComesBack() throws Exception {
        given().get("/q/health/ready").then().statusCode(200)
                .body("checks.name", hasItem("postgresql")).body(POSTGRESQL + ".status", equalTo("UP"));
        given().get("/q/health/started").then().statusCode(200);

        postgres.cut();
        await().atMost(PATIENCE).until(() -> given().get("/q/health/ready").statusCode() == 503);
        given().get("/q/health/ready").then().body(POSTGRESQL + ".status", equalTo("DOWN"));
        given().get("/q/health/live").then().statusCode(200).body("checks[0].name", equalTo("event-loops"));
        await().atMost(PATIENCE).until(() -> Double.valueOf(0).equals(Scrape.now().value(MetricNames.READY.prometheus())));
        // The backlog figures are read every 3 s (buffer.queue.snapshot-interval): they grow old while PostgreSQL is away.
        await().atMost(PATIENCE).until(() -> Scrape.now().count(SNAPSHOT_AGE) >= STALE_SECONDS);

        postgres.restore();
        await().atMost(PATIENCE).until(() -> given().get("/q/health/ready").statusCode() == 200);
        await().atMost(PATIENCE).until(() -> Double.valueOf(1).equals(Scrape.now().value(MetricNames.READY.prometheus())));
        await().atMost(PATIENCE).until(() -> Scrape.now().count(SNAPSHOT_AGE) < STALE_SECONDS);
    }

    @Test
    void redisDownIsReportedButDoesNotFailReadiness() throws Exception {
        await().atMost(PATIENCE).until(() -> given().get("/q/health/group/dependencies").statusCode() == 200);
        given().get("/q/health/ready").then().statusCode(200).body(POSTGRESQL + ".data.redis", equalTo("up"));

        redis.cut();
        await().atMost(PATIENCE).until(() -> given().get("/q/health/group/dependencies").statusCode() == 503);
        await().atMost(PATIENCE).until(() -> "down".equals(
                given().get("/q/health/ready").then().statusCode(200).extract().path(POSTGRESQL + ".data.redis")));
        await().atMost(PATIENCE).until(() -> Double.valueOf(1).equals(
                Scrape.now().value(MetricNames.REDIS_FALLBACK.prometheus())));
        given().get("/q/health/live").then().statusCode(200);

        redis.restore();
        await().atMost(PATIENCE).until(() -> given().get("/q/health/group/dependencies").statusCode() == 200);
        await().atMost(PATIENCE).until(() -> Double.valueOf(0).equals(
                Scrape.now().value(MetricNames.REDIS_FALLBACK.prometheus())));
    }
}
