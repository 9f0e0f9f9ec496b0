package io.webhookbuffer.ingress;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

import io.webhookbuffer.actor.IngestResult;
import io.webhookbuffer.verify.HandshakeAnswer;
import io.webhookbuffer.verify.VerificationFailure;

/** How each ingest answer is counted in buffer_ingest_total{outcome}: by what was decided, whatever its status. */
class IngestAnswerTests {

    @Test
    void eachDecisionOfTheActorHasItsStatusAndItsOutcome() {
        assertAnswer(202, IngestOutcome.BUFFERED, IngestAnswer.of(IngestResult.of(IngestResult.Kind.BUFFERED, "e")));
        IngestAnswer paced = IngestAnswer.of(IngestResult.of(IngestResult.Kind.PACED, "e"));
        assertAnswer(202, IngestOutcome.BUFFERED, paced);
        assertEquals(IngestAnswer.PACED, paced.reply().reason());
        assertAnswer(200, IngestOutcome.DEDUPLICATED,
                IngestAnswer.of(IngestResult.of(IngestResult.Kind.DEDUPLICATED, "e")));
        assertAnswer(429, IngestOutcome.RATE_LIMITED,
                IngestAnswer.of(new IngestResult(IngestResult.Kind.RATE_LIMITED, "e", 3)));
        IngestAnswer quota = IngestAnswer.of(new IngestResult(IngestResult.Kind.QUEUE_FULL, "e", 3));
        assertAnswer(429, IngestOutcome.QUEUE_QUOTA, quota);
        assertEquals(IngestAnswer.QUEUE_QUOTA, quota.reply().reason());
        assertAnswer(503, IngestOutcome.UNAVAILABLE,
                IngestAnswer.of(new IngestResult(IngestResult.Kind.UNAVAILABLE, "e", 30)));
        assertAnswer(503, IngestOutcome.UNAVAILABLE,
                IngestAnswer.of(new IngestResult(IngestResult.Kind.OVERLOADED, "e", 1)));
        assertAnswer(422, IngestOutcome.NOT_STORABLE,
                IngestAnswer.of(IngestResult.of(IngestResult.Kind.NOT_STORABLE, "e")));
    }

    /** A handshake is answered 200 like a duplicate, and counted apart: neither stored nor a duplicate. */
    @Test
    void aHandshakeAnswerIsNotCountedAsADuplicate() {
        assertAnswer(200, IngestOutcome.HANDSHAKE, IngestAnswer.handshake(new HandshakeAnswer("c", null, null)));
        assertAnswer(200, IngestOutcome.HANDSHAKE, IngestAnswer.secretStored("X-Hook-Secret", "s"));
        assertAnswer(429, IngestOutcome.RATE_LIMITED, IngestAnswer.handshakeRate(1));
        assertNull(IngestAnswer.malformedHandshake().outcome(), "no ingest attempt");
        assertNull(IngestAnswer.noHandshakeWindow().outcome(), "no ingest attempt");
    }

    /** Xero's stored events are answered 200 without a body: still counted as buffered. */
    @Test
    void aBodilessAnswerCountsAsWhatItAnswers() {
        IngestAnswer stored = IngestAnswer.of(IngestResult.of(IngestResult.Kind.BUFFERED, "e-1")).bodiless();
        assertAnswer(200, IngestOutcome.BUFFERED, stored);
        assertEquals("", stored.text());
        IngestAnswer duplicate = IngestAnswer.of(IngestResult.of(IngestResult.Kind.DEDUPLICATED, "e-1")).bodiless();
        assertAnswer(200, IngestOutcome.DEDUPLICATED, duplicate);
        IngestAnswer refused = IngestAnswer.unauthorized(VerificationFailure.BAD_SIGNATURE).bodiless();
        assertAnswer(401, IngestOutcome.BAD_SIGNATURE, refused);
        assertEquals("", refused.text());
        IngestAnswer limited = IngestAnswer.of(new IngestResult(IngestResult.Kind.RATE_LIMITED, "e-1", 3)).bodiless();
        assertNull(limited.text(), "a 429 keeps its JSON and its Retry-After");
        assertEquals("Retry-After", limited.header());
    }

    @Test
    void theEdgesAnswersHaveTheirOutcomesAndAMalformedRequestNone() {
        assertAnswer(404, IngestOutcome.UNKNOWN_TENANT, IngestAnswer.notFound());
        assertAnswer(413, IngestOutcome.TOO_LARGE, IngestAnswer.tooLarge());
        assertAnswer(503, IngestOutcome.UNAVAILABLE, IngestAnswer.lookupBusy(1));
        assertAnswer(503, IngestOutcome.UNAVAILABLE, IngestAnswer.busy(1));
        assertAnswer(503, IngestOutcome.UNAVAILABLE, IngestAnswer.verificationBusy());
        assertAnswer(401, IngestOutcome.BAD_SIGNATURE, IngestAnswer.queryHandshakeRefused(false, "bad_token"));
        assertAnswer(400, null, IngestAnswer.queryHandshakeRefused(true, "malformed"));
        assertAnswer(400, null, IngestAnswer.invalidHost());
        assertAnswer(408, null, IngestAnswer.bodyTimeout());
        assertAnswer(431, null, IngestAnswer.tooManyHeaders());
        assertAnswer(405, null, IngestAnswer.methodNotAllowed());
    }

    private static void assertAnswer(int status, IngestOutcome outcome, IngestAnswer answer) {
        assertEquals(status, answer.status(), answer.toString());
        assertEquals(outcome, answer.outcome(), answer.toString());
    }
}
