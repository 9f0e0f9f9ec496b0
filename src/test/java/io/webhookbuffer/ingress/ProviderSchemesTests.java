package io.webhookbuffer.ingress;

import static io.restassured.RestAssured.given;
import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.config.EncoderConfig;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.metrics.MetricNames;
import io.webhookbuffer.testsupport.AtOnce;
import io.webhookbuffer.testsupport.Db;
import io.webhookbuffer.testsupport.EventKeys;
import io.webhookbuffer.testsupport.TestClock;
import io.webhookbuffer.testsupport.Scrape;
import io.webhookbuffer.testsupport.SignatureVectors;
import io.webhookbuffer.testsupport.SignatureVectors.Vector;
import io.webhookbuffer.testsupport.TestTenants;
import io.webhookbuffer.verify.Providers;
import io.webhookbuffer.verify.VerificationFailure;

/**
 * Every provider scheme through the real endpoint, PostgreSQL and Redis: the golden vectors (replayed at their own
 * receive time through the pinned ingress clock), rotation, dedupe on the provider's id, the Slack, Zoom and Discord
 * handshakes, Mailgun's token as the replay guard, and hostile headers answered with 401 only.
 */
@QuarkusTest
class ProviderSchemesTests {

    @Inject
    Pool pool;

    @Inject
    TestClock clock;

    @Inject
    RefusalLog refusals;

    @AfterEach
    void unpin() {
        clock.unpin();
    }

    static Stream<Arguments> vectors() {
        // A tenant needs at least one secret, so the "no secret" unit vectors have no HTTP twin. The SDK-made vectors
        // (signature-vectors/sdk) go through the endpoint too.
        return Stream.concat(SignatureVectors.all().stream(), SignatureVectors.sdk().stream())
                .filter(v -> !v.secrets().isEmpty())
                .map(v -> Arguments.of(v.toString(), v));
    }

    /**
     * Each vector's own fresh tenant (no vector meets another's rows, refusals or dedupe keys), by vector name: all of
     * them provisioned at once when the first vector is sent ({@link TestTenants#provisionAll}), rather than one PUT
     * before each of the 537 vectors.
     */
    private static Map<String, String> vectorTenants;

    private static synchronized String vectorTenant(Vector v) {
        if (vectorTenants == null) {
            List<Vector> all = vectors().map(a -> (Vector) a.get()[1]).toList();
            List<String> ids = TestTenants.provisionAll(all.stream().map(x -> tenantFor(x, x.secrets())).toList());
            Map<String, String> byName = new HashMap<>();
            for (int i = 0; i < all.size(); i++) {
                if (byName.put(all.get(i).toString(), ids.get(i)) != null) {
                    throw new IllegalStateException("two vectors named " + all.get(i));
                }
            }
            vectorTenants = byName;
        }
        return vectorTenants.get(v.toString());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("vectors")
    void goldenVectorThroughTheEndpoint(String name, Vector v) {
        String t = vectorTenant(v);
        Response response = send(v, t);
        if (v.expected() != VerificationFailure.NONE) {
            refused(name, v, t, response);
        } else if (v.handshake() != null && "".equals(v.handshake().get("text"))) {
            bodiless(response, 200);
            assertEquals(0, Db.queued(pool, t), name + ": a handshake is answered, never buffered");
        } else if (v.handshake() != null && v.handshake().containsKey("text")) {
            response.then().statusCode(200).header("Content-Type", "text/plain;charset=UTF-8")
                    .header("X-Content-Type-Options", "nosniff");
            assertEquals(v.handshake().get("text"), response.asString(), name);
            assertEquals(0, Db.queued(pool, t), name + ": a handshake is answered, never buffered");
        } else if (v.handshake() != null) {
            response.then().statusCode(200).body("status", nullValue());
            // Discord's PONG carries a number ({"type": 1}); the other handshakes carry strings.
            v.handshake().forEach((field, value) -> response.then().body(field,
                    equalTo("type".equals(field) ? (Object) Integer.valueOf(value) : value)));
            assertEquals(0, Db.queued(pool, t), name + ": a handshake is answered, never buffered");
        } else if (Providers.answersWithoutBody(v.provider())) {
            bodiless(response, 200);
            assertEquals(1, Db.queued(pool, t), name + ": stored, then answered 200 without a body");
        } else {
            response.then().statusCode(202).body("status", equalTo("buffered"))
                    .body("eventId", equalTo(expectedEventId(v)));
            assertEquals(1, Db.queued(pool, t), name);
        }
    }

    /** A 401, with the reason in its body, or (Xero: no body) in the tenant's refusals; nothing stored. */
    private void refused(String name, Vector v, String t, Response response) {
        if (Providers.answersWithoutBody(v.provider())) {
            bodiless(response, 401);
            assertEquals(overHttp(v).reason(), refusals.local(t).get(0).reason(), name + ": the reason is in the refusals");
        } else {
            response.then().statusCode(401).body("status", equalTo("invalid_signature"))
                    .body("reason", equalTo(overHttp(v).reason()));
        }
        assertEquals(0, Db.queued(pool, t), name + ": nothing stored");
    }

    /** Xero's answers: the status, no body, no content type (https://developer.xero.com/documentation/webhooks). */
    private static void bodiless(Response response, int status) {
        response.then().statusCode(status).header("Content-Length", "0").header("Content-Type", nullValue());
        assertEquals("", response.asString());
    }

    /**
     * For every provider: the same event signed anew (with the previous secret, so the signature differs) is a
     * duplicate of the first, by the provider's own id; a tenant with both secrets accepts both signatures, a
     * tenant with only the current one refuses the previous one's.
     */
    @Test
    void everyProviderDedupesOnItsOwnIdAndAcceptsEveryActiveSecret() {
        List<String> providers = SignatureVectors.PROVIDERS.stream().filter(p -> !"generic".equals(p)).toList();
        // Two tenants a provider, all provisioned at once: one with both secrets, one with only the current one.
        List<TestTenants> tenants = new ArrayList<>();
        for (String provider : providers) {
            Vector current = named(provider, "valid");
            tenants.add(tenantFor(current, current.secrets()));
            tenants.add(tenantFor(current, List.of(current.secrets().get(0))));
        }
        List<String> ids = TestTenants.provisionAll(tenants);
        for (int i = 0; i < providers.size(); i++) {
            String provider = providers.get(i);
            Vector current = named(provider, "valid");
            Vector previous = named(provider, "valid-previous-secret");
            assertFalse(current.headers().equals(previous.headers()) && Arrays.equals(current.body(), previous.body()),
                    provider + ": two different signatures (in a header, or in Mailgun's body)");
            String both = ids.get(2 * i);
            boolean bodiless = Providers.answersWithoutBody(provider);
            if (bodiless) {
                bodiless(send(current, both), 200);
                bodiless(send(previous, both), 200);
            } else {
                send(current, both).then().statusCode(202).body("status", equalTo("buffered"))
                        .body("eventId", equalTo(expectedEventId(current)));
                send(previous, both).then().statusCode(200).body("status", equalTo("deduplicated"))
                        .body("eventId", equalTo(expectedEventId(current)));
            }
            assertEquals(1, Db.queued(pool, both), provider + ": one row for one provider event");

            String onlyCurrent = ids.get(2 * i + 1);
            send(previous, onlyCurrent).then().statusCode(401);
            assertEquals("bad_signature", refusals.local(onlyCurrent).get(0).reason(), provider);
            send(current, onlyCurrent).then().statusCode(bodiless ? 200 : 202);
        }
    }

    @Test
    void slackUrlVerificationIsAnsweredWithItsChallengeAndNotBuffered() {
        Vector handshake = named("slack", "url-verification-handshake");
        String t = provision(handshake, handshake.secrets());
        send(handshake, t).then().statusCode(200)
                .body("challenge", equalTo("3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P"))
                .body("eventId", nullValue());
        Vector unsigned = named("slack", "url-verification-unsigned");
        send(unsigned, t).then().statusCode(401).body("challenge", nullValue());
        assertEquals(0, Db.queued(pool, t));
        // Events after the handshake are buffered as usual.
        Vector event = named("slack", "valid");
        send(event, t).then().statusCode(202);
        assertEquals(1, Db.queued(pool, t));
    }

    @Test
    void zoomUrlValidationIsAnsweredWithTheTokenOfTheSecretThatSignedIt() {
        Vector handshake = named("zoom", "url-validation-handshake");
        String t = provision(handshake, handshake.secrets());
        String signingSecret = handshake.secrets().get(1);
        String expected = HexFormat.of().formatHex(Hmac.hmacSha256(signingSecret, "qgg8vlvZRS6UYooatFL8Aw".getBytes()));
        send(handshake, t).then().statusCode(200).body("plainToken", equalTo("qgg8vlvZRS6UYooatFL8Aw"))
                .body("encryptedToken", equalTo(expected));
        assertEquals(0, Db.queued(pool, t));
        // The same handshake signed with a secret the tenant lacks: refused, no token computed.
        String other = provision(handshake, List.of("zoom-unrelated-secret"));
        send(handshake, other).then().statusCode(401).body("encryptedToken", nullValue());
    }

    /**
     * Discord's PING interaction, verified (Ed25519, on the verification pool), is answered with exactly
     * {@code {"type":1}} and never buffered; a bad signature is a 401 (Discord's security checks send such requests
     * and remove an endpoint that accepts them); interactions after the PING are buffered.
     */
    @Test
    void discordPingIsAnsweredWithPongAndABadSignatureIsA401() {
        Vector ping = named("discord", "ping-handshake");
        String t = provision(ping, ping.secrets());
        Scrape before = Scrape.now();
        Response pong = send(ping, t);
        pong.then().statusCode(200).contentType(startsWith("application/json"));
        assertEquals("{\"type\":1}", pong.body().asString());
        send(named("discord", "ping-unsigned"), t).then().statusCode(401).body("type", nullValue())
                .body("reason", equalTo("bad_signature"));
        assertEquals(0, Db.queued(pool, t), "a PING is answered, never buffered");
        Vector command = named("discord", "valid");
        send(command, t).then().statusCode(202).body("status", equalTo("buffered"))
                .body("eventId", equalTo("1183219437123404830"));
        assertEquals(1, Db.queued(pool, t));
        String offloaded = MetricNames.VERIFICATIONS_OFFLOADED.prometheus();
        assertEquals(3, Scrape.now().count(offloaded) - before.count(offloaded),
                "each small Ed25519 request was verified on the pool, off the event loop");
    }

    /**
     * Mailgun's signature covers timestamp + token, not the event, so the token is the replay guard: a captured
     * signature block re-sent on another body within the tolerance is answered as a duplicate of the genuine event and
     * never stored.
     */
    @Test
    void aReplayedMailgunTokenIsADuplicateEvenOnAnotherBody() {
        Vector genuine = named("mailgun", "valid");
        Vector forged = named("mailgun", "other-event-data-same-token");
        String t = provision(genuine, List.of(genuine.secrets().get(0)));
        send(genuine, t).then().statusCode(202).body("eventId", equalTo(genuine.dedupeId()));
        send(forged, t).then().statusCode(200).body("status", equalTo("deduplicated"))
                .body("eventId", equalTo(genuine.dedupeId()));
        send(genuine, t).then().statusCode(200).body("status", equalTo("deduplicated"));
        assertEquals(1, Db.queued(pool, t), "one row for one token");
    }

    @Test
    void hostileHeadersAreOnlyEverA401() {
        Random random = new Random(0x401L);
        // Mailgun signs in the body (no header to break): its malformed bodies are vectors, run above.
        List<String> providers = SignatureVectors.PROVIDERS.stream().filter(p -> !"mailgun".equals(p)).toList();
        List<String> ids = TestTenants.provisionAll(providers.stream()
                .map(p -> tenantFor(named(p, "valid"), named(p, "valid").secrets())).toList());
        // Each provider's 24 on its own tenant, four providers at a time: the values drawn in the same order as before.
        List<Callable<Void>> checks = new ArrayList<>();
        for (int p = 0; p < providers.size(); p++) {
            String provider = providers.get(p);
            Vector valid = named(provider, "valid");
            String t = ids.get(p);
            String header = signatureHeader(valid);
            List<String> values = new ArrayList<>();
            for (int i = 0; i < 24; i++) {
                values.add(hostileAscii(random, valid.headers().get(header), i));
            }
            checks.add(() -> {
                for (String value : values) {
                    Map<String, String> headers = new LinkedHashMap<>(valid.headers());
                    headers.put(header, value);
                    RequestSpecification request = request(new Vector(valid.provider(), valid.name(),
                            valid.description(), valid.secrets(), valid.publicUrl(), valid.receivedAt(), headers,
                            valid.body(), valid.expected(), valid.dedupeId(), valid.handshake()));
                    int status = request.when().post("/webhook/" + t).statusCode();
                    assertEquals(401, status, provider + " answered " + status + " to " + header + ": "
                            + value.substring(0, Math.min(80, value.length())));
                }
                assertEquals(0, Db.queued(pool, t), provider);
                return null;
            });
        }
        AtOnce.run(4, checks);
    }

    @Test
    void aTenantWithAWiderToleranceAcceptsWhatTheDefaultRefuses() {
        Vector late = named("paddle", "outside-default-tolerance");
        String strict = provision(late, late.secrets());
        send(late, strict).then().statusCode(401).body("reason", equalTo("stale_timestamp"));
        String lenient = tenantFor(late, late.secrets()).toleranceSeconds(30).provision();
        send(late, lenient).then().statusCode(202);
    }

    // ---- helpers ----

    private static Vector named(String provider, String name) {
        return SignatureVectors.of(provider).stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
    }

    private static TestTenants tenantFor(Vector v, List<String> secrets) {
        TestTenants tenant = tenant().provider(v.provider()).secrets(secrets);
        if (v.publicUrl() != null) {
            tenant.publicUrl(v.publicUrl());
        }
        return tenant;
    }

    private static String provision(Vector v, List<String> secrets) {
        return tenantFor(v, secrets).provision();
    }

    private Response send(Vector v, String tenantId) {
        if (v.receivedAt() != null) {
            clock.pin(v.receivedAt());
        }
        try {
            return request(v).when().post("/webhook/" + tenantId);
        } finally {
            clock.unpin();
        }
    }

    /** The vector's headers and exact body bytes; the content type is sent as is (no charset appended). */
    private static RequestSpecification request(Vector v) {
        RequestSpecification request = given().config(RestAssured.config().encoderConfig(
                EncoderConfig.encoderConfig().appendDefaultContentCharsetToContentTypeIfUndefined(false)));
        for (Map.Entry<String, String> h : v.headers().entrySet()) {
            if (h.getKey().equalsIgnoreCase("Content-Type")) {
                request.contentType(h.getValue());
            } else {
                request.header(h.getKey(), h.getValue());
            }
        }
        // RestAssured form-encodes a form content type unless the body is text; the vector's text is already encoded.
        boolean form = v.headers().getOrDefault("Content-Type", "").startsWith("application/x-www-form-urlencoded");
        return form ? request.body(new String(v.body(), StandardCharsets.UTF_8)) : request.body(v.body());
    }

    /** HTTP trims header values: a whitespace-only signature header arrives empty, which is a missing one. */
    private static VerificationFailure overHttp(Vector v) {
        boolean blankHeader = v.headers().values().stream().anyMatch(String::isBlank);
        return blankHeader && v.expected() == VerificationFailure.MALFORMED_SIGNATURE
                ? VerificationFailure.MISSING_SIGNATURE
                : v.expected();
    }

    private static String expectedEventId(Vector v) {
        if (v.dedupeId() == null) {
            return EventKeys.ofBody(v.body());
        }
        String volatileField = SignatureVectors.VOLATILE_FIELDS.get(v.provider());
        if (volatileField != null) {
            return EventKeys.boundWithout(v.dedupeId(), new String(v.body(), StandardCharsets.UTF_8), volatileField);
        }
        return SignatureVectors.UNSIGNED_IDS.contains(v.provider()) ? EventKeys.bound(v.dedupeId(), v.body()) : v.dedupeId();
    }

    private static String signatureHeader(Vector v) {
        for (String name : v.headers().keySet()) {
            String n = name.toLowerCase(Locale.ROOT);
            if (n.contains("signature") || n.contains("hmac") || n.equals("x-gitlab-token")
                    || n.equals("x-trello-webhook")) {
                return name;
            }
        }
        throw new IllegalStateException(v + " has no signature header");
    }

    /** Values an HTTP client can send (visible ASCII and spaces): separators, truncations, mutations, huge. */
    private static String hostileAscii(Random random, String valid, int i) {
        return switch (i % 6) {
            case 0 -> ",,,;;;===   v1=,t=,ts=;h1=";
            case 1 -> valid + ",,;;==";
            case 2 -> valid.substring(0, valid.length() / 2);
            case 3 -> "v1," + "A".repeat(4000) + " " + valid.replace('a', 'b').replace('1', '2');
            case 4 -> "t=" + "9".repeat(30) + ",v1=" + "0".repeat(64);
            default -> {
                StringBuilder sb = new StringBuilder();
                for (int n = 0; n < 1 + random.nextInt(200); n++) {
                    sb.append((char) (0x21 + random.nextInt(0x5e)));
                }
                yield sb.toString();
            }
        };
    }
}
