package io.webhookbuffer.tenant;

import static io.webhookbuffer.testsupport.TestTenants.tenant;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import io.webhookbuffer.egress.OriginTrustProfile;
import io.webhookbuffer.testsupport.Events;
import io.webhookbuffer.testsupport.FakeOrigin;
import io.webhookbuffer.testsupport.FakeOrigin.Answer;
import io.webhookbuffer.testsupport.InjectFakeOrigin;
import io.webhookbuffer.testsupport.TestTenants;

/**
 * A tenant whose configuration the origin serves (the origin pull) says what its sender does after a refusal as a
 * tenant command does ({@code senderRetries}, issue 43): absent or null, its provider's (generic: never, so events over
 * the limit are stored and paced); {@code "long"}, refused with 429 over the limit; a value the command would refuse
 * makes the config unusable (no tenant: 404). Real app, PostgreSQL, Redis and an origin started by the test.
 */
@QuarkusTest
@TestProfile(OriginTrustProfile.class)
class OriginPulledSenderRetriesTests {

    private static final int SENT = 6;

    @InjectFakeOrigin
    FakeOrigin origin;

    @Test
    void absentOrNullItIsTheProvidersAndTheEventsOverTheLimitAreStored() {
        for (String retries : new String[] {null, "null"}) {
            String t = pulled(retries);
            Map<String, Integer> answers = send(t);
            assertEquals(SENT, answers.getOrDefault("202 null", 0) + answers.getOrDefault("202 paced", 0),
                    "generic never retries: all stored (" + retries + "): " + answers);
            assertTrue(answers.getOrDefault("202 paced", 0) >= SENT - 3, "over the limit of 2: paced: " + answers);
        }
    }

    @Test
    void longKeepsTheRefusalOverTheLimit() {
        Map<String, Integer> answers = send(pulled("\"long\""));
        int refused = answers.getOrDefault("429 null", 0);
        assertTrue(refused >= SENT - 3, "a sender that retries long is refused over its limit of 2: " + answers);
        assertEquals(SENT, refused + answers.getOrDefault("202 null", 0), answers.toString());
    }

    @Test
    void aValueTheTenantCommandWouldRefuseIsNoTenant() {
        for (String bad : new String[] {"\"sometimes\"", "\"LONG\"", "3"}) {
            String t = pulled(bad);
            Events.post(t, "bad-1").then().statusCode(404);
        }
        Map<String, Integer> briefly = send(pulled("\"briefly\""));
        assertEquals(SENT, briefly.getOrDefault("202 null", 0) + briefly.getOrDefault("202 paced", 0),
                "briefly is a value the command accepts, and stores over the limit: " + briefly);
    }

    /** A tenant only the origin knows: generic, 2 events a minute, {@code senderRetries} as given (raw JSON). */
    private String pulled(String senderRetries) {
        String t = tenant().id();
        String field = senderRetries == null ? "" : ",\"senderRetries\":" + senderRetries;
        origin.answerConfig(t, new Answer(200, Map.of("Content-Type", "application/json"),
                "{\"active\":true,\"rateLimit\":2,\"rateWindowSeconds\":60,\"secrets\":[\""
                        + TestTenants.DEFAULT_SECRET + "\"]" + field + "}", 0));
        return t;
    }

    private static Map<String, Integer> send(String tenantId) {
        Map<String, Integer> answers = new HashMap<>();
        for (int i = 0; i < SENT; i++) {
            Response r = Events.post(tenantId, "pulled-" + i);
            String reason = r.statusCode() == 429 ? null : r.jsonPath().getString("reason");
            answers.merge(r.statusCode() + " " + reason, 1, Integer::sum);
        }
        return answers;
    }
}
