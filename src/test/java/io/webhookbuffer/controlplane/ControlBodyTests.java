package io.webhookbuffer.controlplane;

import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.webhookbuffer.testsupport.RawHttp;
import io.webhookbuffer.testsupport.Signed;

/**
 * The bound on control bodies (256 KiB, docs/control-plane.md): a body over it is answered 413 problem+json before
 * it is read (before the signature, which covers the body, can be checked), and nothing is applied; commands up to
 * it, the largest legitimate ones included, work as before.
 */
@QuarkusTest
class ControlBodyTests {

    /** The documented bound; spelled out here so that the test states the contract, not the constant. */
    private static final int BOUND = 256 * 1024;
    private static final Duration SOON = Duration.ofSeconds(3);

    private static String newId() {
        return "cbody-" + UUID.randomUUID().toString().substring(0, 18);
    }

    /** A valid tenant command padded with JSON whitespace to exactly {@code size} bytes. */
    private static String paddedUpsert(int size) {
        String head = "{\"active\":true,\"provider\":\"generic\",\"secrets\":[\"padded-secret-1\"]";
        return head + " ".repeat(size - head.length() - 1) + "}";
    }

    @Test
    void aSignedCommandOverTheBoundIsRefused413AndNothingIsApplied() {
        String id = newId();
        Signed.command(paddedUpsert(BOUND + 1)).put("/control/tenants/" + id)
                .then().statusCode(413)
                .contentType(startsWith(Problem.MEDIA_TYPE))
                .body("status", equalTo(413)).body("reason", equalTo("body_too_large"));
        Signed.command("").get("/control/tenants/" + id).then().statusCode(404);
    }

    @Test
    void aCommandAtTheBoundWorks() {
        String id = newId();
        Signed.command(paddedUpsert(BOUND)).put("/control/tenants/" + id)
                .then().statusCode(200).body("tenantId", equalTo(id)).body("secretCount", equalTo(1));
    }

    /** The largest legitimate command: a replay naming 10,000 ids of 19 digits, pretty printed (about 250 KB). */
    @Test
    void theLargestBulkCommandFitsAndIsAuthenticated() {
        String id = newId();
        StringBuilder body = new StringBuilder("{\n  \"ids\": [\n");
        for (int i = 0; i < 10_000; i++) {
            body.append("    ").append(Long.MAX_VALUE - i).append(i < 9_999 ? ",\n" : "\n");
        }
        body.append("  ]\n}");
        assertTrue(body.length() > 240_000 && body.length() <= BOUND, "size " + body.length());
        Signed.command(body.toString()).post("/control/tenants/" + id + "/dead-letters/replay")
                .then().statusCode(200).body("replayed", equalTo(0));
        // Signed for another body: refused after the MAC, which ran (off the event loop, at this size).
        Signed.commandSignedFor("POST", "/control/tenants/" + id + "/dead-letters/replay", "{}")
                .body(body.toString().getBytes(StandardCharsets.UTF_8))
                .post("/control/tenants/" + id + "/dead-letters/replay")
                .then().statusCode(401).body("reason", equalTo("bad_signature"));
    }

    /** Unsigned, with a declared length over the bound and no body sent: 413 at once, never 401 or a wait. */
    @Test
    void anUnsignedOversizedBodyIsAnswered413BeforeAnyOfItIsSent() throws Exception {
        try (RawHttp http = RawHttp.open()) {
            http.send(RawHttp.head("PUT /control/tenants/" + newId(), "Host: localhost",
                    "Content-Type: application/json", "Content-Length: " + (10 * 1024 * 1024)));
            RawHttp.Answer answer = http.answer(SOON);
            assertEquals(413, answer.status(), answer.toString());
            assertTrue(answer.body().contains("\"reason\":\"body_too_large\""), answer.body());
            assertTrue(http.closedWithin(SOON), "the connection ends");
        }
    }

    /** Chunked, no length declared: refused at the first chunk past the bound. */
    @Test
    void aChunkedBodyIsRefusedAtTheFirstChunkPastTheBound() throws Exception {
        try (RawHttp http = RawHttp.open()) {
            http.send(RawHttp.head("POST /control/tenants/" + newId() + "/dead-letters/replay", "Host: localhost",
                    "Content-Type: application/json", "Transfer-Encoding: chunked"));
            byte[] chunk = new byte[64 * 1024];
            Arrays.fill(chunk, (byte) ' ');
            for (int sent = 0; sent <= BOUND; sent += chunk.length) {
                http.chunk(chunk);
            }
            RawHttp.Answer answer = http.answer(SOON);
            assertEquals(413, answer.status(), answer.toString());
            assertTrue(answer.body().contains("\"reason\":\"body_too_large\""), answer.body());
        }
    }
}
