package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** How each ingest answer is counted in buffer_ingest_total{outcome}. */
class IngestOutcomeTests {

    @Test
    void aHandshakeAnswerIsNotCountedAsADuplicate() {
        assertEquals(IngestOutcome.DEDUPLICATED, IngestOutcome.of(200, new IngressReply("deduplicated", "e-1", null)));
        assertEquals(IngestOutcome.HANDSHAKE,
                IngestOutcome.of(200, new IngressReply(null, null, null, "challenge-text", null, null)));
        assertEquals(IngestOutcome.HANDSHAKE,
                IngestOutcome.of(200, new IngressReply(null, null, null, null, "plain", "encrypted")));
        assertEquals(IngestOutcome.HANDSHAKE, IngestOutcome.of(200, IngressReply.status("handshake_accepted")),
                "an Asana secret handshake taken in its window");
    }

    /** Xero's stored events are answered 200 without a body: still counted as buffered, by the reply they keep. */
    @Test
    void aBodilessAnswerCountsAsWhatItAnswers() {
        IngressAnswer stored = IngressResponses.bodiless(IngressAnswer.of(202, new IngressReply("buffered", "e-1", null)));
        assertEquals(200, stored.status());
        assertEquals("", stored.text());
        assertEquals(IngestOutcome.BUFFERED, IngestOutcome.of(stored.status(), stored.reply()));
        IngressAnswer duplicate = IngressResponses.bodiless(
                IngressAnswer.of(200, new IngressReply("deduplicated", "e-1", null)));
        assertEquals(IngestOutcome.DEDUPLICATED, IngestOutcome.of(duplicate.status(), duplicate.reply()));
        IngressAnswer refused = IngressResponses.bodiless(
                IngressAnswer.retryAfter(429, new IngressReply("rate_limited", null, null), 3));
        assertEquals(429, refused.status());
        assertEquals(null, refused.text(), "a 429 keeps its JSON and its Retry-After");
        assertEquals("Retry-After", refused.header());
    }

    @Test
    void everyContractStatusHasOneOutcome() {
        assertEquals(IngestOutcome.BUFFERED, IngestOutcome.of(202, null));
        assertEquals(IngestOutcome.RATE_LIMITED, IngestOutcome.of(429, null));
        assertEquals(IngestOutcome.QUEUE_QUOTA,
                IngestOutcome.of(429, new IngressReply("rate_limited", "e-1", IngressResponses.QUEUE_QUOTA)));
        assertEquals(IngestOutcome.RATE_LIMITED,
                IngestOutcome.of(429, new IngressReply("rate_limited", null, "handshake_rate")));
        assertEquals(IngestOutcome.BAD_SIGNATURE, IngestOutcome.of(401, null));
        assertEquals(IngestOutcome.UNKNOWN_TENANT, IngestOutcome.of(404, null));
        assertEquals(IngestOutcome.TOO_LARGE, IngestOutcome.of(413, null));
        assertEquals(IngestOutcome.UNAVAILABLE, IngestOutcome.of(503, null));
        assertEquals(IngestOutcome.NOT_STORABLE, IngestOutcome.of(422, null));
        assertNull(IngestOutcome.of(405, null), "a wrong method is not an ingest attempt");
    }
}
