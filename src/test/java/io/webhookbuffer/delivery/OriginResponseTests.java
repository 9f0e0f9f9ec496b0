package io.webhookbuffer.delivery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** How an origin's answer is classified: done, retried, or a refusal of the events. */
class OriginResponseTests {

    private static OriginResponse status(int status) {
        return new OriginResponse(status, 0, Map.of(), null);
    }

    @ParameterizedTest
    @ValueSource(ints = { 0, 301, 302, 307, 308, 401, 403, 404, 408, 429, 500, 502, 503, 504 })
    void retriedNeverDeadLetteredByBisection(int code) {
        assertTrue(status(code).retryable(), code + " is retried");
        assertFalse(status(code).refused(), code + " is not a refusal");
    }

    @ParameterizedTest
    @ValueSource(ints = { 400, 409, 410, 413, 415, 422 })
    void otherClientErrorsRefuseTheEvents(int code) {
        assertTrue(status(code).refused());
        assertFalse(status(code).retryable());
    }

    @ParameterizedTest
    @ValueSource(ints = { 200, 201, 202, 204 })
    void twoHundredsAreDone(int code) {
        assertTrue(status(code).success());
        assertFalse(status(code).retryable());
        assertFalse(status(code).refused());
    }

    @Test
    void originTextIsStoredWithoutNulAndBounded() {
        assertEquals("abc", OriginResponse.truncate("a\u0000b\u0000c"));
        assertEquals(1003, OriginResponse.truncate("x".repeat(5000)).length());
        assertEquals(null, OriginResponse.truncate(null));
    }

    @Test
    void retryAfterSecondsAreParsedAndGarbageIgnored() {
        assertEquals(120_000, OriginClient.parseRetryAfter("120"));
        assertEquals(0, OriginClient.parseRetryAfter("Wed, 21 Oct 2026 07:28:00 GMT"));
        assertEquals(0, OriginClient.parseRetryAfter("-5"));
        assertEquals(86_400_000, OriginClient.parseRetryAfter("999999999"));
        assertEquals(0, OriginClient.parseRetryAfter(null));
    }
}
