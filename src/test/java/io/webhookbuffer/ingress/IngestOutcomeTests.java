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
    }

    @Test
    void everyContractStatusHasOneOutcome() {
        assertEquals(IngestOutcome.BUFFERED, IngestOutcome.of(202, null));
        assertEquals(IngestOutcome.RATE_LIMITED, IngestOutcome.of(429, null));
        assertEquals(IngestOutcome.BAD_SIGNATURE, IngestOutcome.of(401, null));
        assertEquals(IngestOutcome.UNKNOWN_TENANT, IngestOutcome.of(404, null));
        assertEquals(IngestOutcome.TOO_LARGE, IngestOutcome.of(413, null));
        assertEquals(IngestOutcome.UNAVAILABLE, IngestOutcome.of(503, null));
        assertEquals(IngestOutcome.NOT_STORABLE, IngestOutcome.of(422, null));
        assertNull(IngestOutcome.of(405, null), "a wrong method is not an ingest attempt");
    }
}
