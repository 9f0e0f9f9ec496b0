package io.webhookbuffer.common;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.testsupport.EventKeys;

/**
 * The body digest that binds an unsigned id (issue 41 item 1): a provider's volatile fields (its signed send time)
 * are left out, every other byte stays bound; a body that is not one JSON object is hashed whole.
 */
class EventIdsTests {

    private static final List<String> TS = List.of("webhookTimestamp");

    @Test
    void aRetryWithAnotherSendTimeHasTheSameDigest() {
        byte[] first = bytes("{\"action\":\"create\",\"data\":{\"id\":\"i-1\"},\"webhookTimestamp\":1767225600000}");
        byte[] retry = bytes("{\"action\":\"create\",\"data\":{\"id\":\"i-1\"},\"webhookTimestamp\":1767225601000}");
        assertArrayEquals(EventIds.bodyDigest(first, TS), EventIds.bodyDigest(retry, TS));
        assertFalse(Arrays.equals(Hmac.sha256(first), EventIds.bodyDigest(first, TS)), "the field is left out");
    }

    @Test
    void everyOtherByteIsStillBound() {
        byte[] one = bytes("{\"action\":\"create\",\"data\":{\"id\":\"i-1\"},\"webhookTimestamp\":1}");
        for (String other : List.of("{\"action\":\"create\",\"data\":{\"id\":\"i-2\"},\"webhookTimestamp\":1}",
                "{\"action\":\"remove\",\"data\":{\"id\":\"i-1\"},\"webhookTimestamp\":1}",
                "{\"action\":\"create\",\"data\":{\"id\":\"i-1\"},\"webhookTimestamp\":1,\"x\":0}",
                "{\"action\":\"create\",\"data\":{\"id\":\"i-1\"},\"webhookTimestampX\":1}",
                "{\"action\":\"create\", \"data\":{\"id\":\"i-1\"},\"webhookTimestamp\":1}")) {
            assertFalse(Arrays.equals(EventIds.bodyDigest(one, TS), EventIds.bodyDigest(bytes(other), TS)), other);
        }
    }

    @Test
    void theCutIsTheValueAndWhatFollowsItUpToTheNextName() {
        // As docs/providers.md states it, independently of the parser: {"a":1,"ts":5,"b":2} hashes as {"a":1,"ts":"b":2}.
        assertArrayEquals(Hmac.sha256(bytes("{\"a\":1,\"webhookTimestamp\":\"b\":2}")),
                EventIds.bodyDigest(bytes("{\"a\":1,\"webhookTimestamp\":5, \"b\":2}"), TS));
        assertArrayEquals(Hmac.sha256(bytes("{\"a\":1,\"webhookTimestamp\":}")),
                EventIds.bodyDigest(bytes("{\"a\":1,\"webhookTimestamp\":\"2026-12-06T15:00:00Z\"}"), TS));
        // A value of any shape, and every top-level occurrence of the name.
        assertArrayEquals(Hmac.sha256(bytes("{\"webhookTimestamp\":\"a\":1,\"webhookTimestamp\":}")),
                EventIds.bodyDigest(bytes("{\"webhookTimestamp\":{\"s\":[1,2]},\"a\":1,\"webhookTimestamp\":null}"), TS));
        String compact = "{\"a\":1,\"webhookTimestamp\":5,\"b\":2}";
        assertEquals(EventKeys.boundWithout("id", compact, "webhookTimestamp"),
                EventIds.bind("id", bytes(compact), TS), "the test helper agrees with the docs' rule");
    }

    @Test
    void aNestedFieldOfThatNameIsBoundLikeAnyOther() {
        byte[] nested = bytes("{\"data\":{\"webhookTimestamp\":1}}");
        assertArrayEquals(Hmac.sha256(nested), EventIds.bodyDigest(nested, TS));
        assertFalse(Arrays.equals(EventIds.bodyDigest(nested, TS),
                EventIds.bodyDigest(bytes("{\"data\":{\"webhookTimestamp\":2}}"), TS)));
    }

    @Test
    void aBodyThatIsNotOneCompleteJsonObjectIsHashedWhole() {
        for (String body : List.of("", "[1]", "webhookTimestamp=1", "{\"webhookTimestamp\":1", "{\"webhookTimestamp\":1,}",
                "{\"a\":1}", "\"webhookTimestamp\"")) {
            assertArrayEquals(Hmac.sha256(bytes(body)), EventIds.bodyDigest(bytes(body), TS), body);
        }
    }

    @Test
    void withoutVolatileFieldsTheBindingIsUnchanged() {
        byte[] body = bytes("{\"webhookTimestamp\":1}");
        assertEquals(EventKeys.bound("d-1", body), EventIds.bind("d-1", body));
        assertEquals(EventKeys.bound("d-1", body), EventIds.bind("d-1", body, List.of()));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
