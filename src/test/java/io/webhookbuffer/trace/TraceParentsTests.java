package io.webhookbuffer.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;

/** The W3C traceparent text, read from senders and stored rows, written for rows and origins. */
class TraceParentsTests {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final String SPAN = "00f067aa0ba902b7";

    @Test
    void aContextRoundTrips() {
        SpanContext context = SpanContext.create(TRACE, SPAN, TraceFlags.getSampled(), TraceState.getDefault());
        String text = TraceParents.format(context);
        assertEquals("00-" + TRACE + "-" + SPAN + "-01", text);
        SpanContext read = TraceParents.parse(text);
        assertEquals(TRACE, read.getTraceId());
        assertEquals(SPAN, read.getSpanId());
        assertTrue(read.isSampled());
        assertTrue(read.isRemote());
        assertFalse(TraceParents.parse("00-" + TRACE + "-" + SPAN + "-00").isSampled());
    }

    @Test
    void noContextHasNoText() {
        assertNull(TraceParents.format(SpanContext.getInvalid()));
        assertNull(TraceParents.format(null));
    }

    @Test
    void aLaterVersionIsReadByItsFirstFields() {
        assertEquals(SPAN, TraceParents.parse("01-" + TRACE + "-" + SPAN + "-01-more").getSpanId());
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "garbage", "00-" + TRACE + "-" + SPAN, "00-" + TRACE + "-" + SPAN + "-01-extra",
            "ff-" + TRACE + "-" + SPAN + "-01", "00-00000000000000000000000000000000-" + SPAN + "-01",
            "00-" + TRACE + "-0000000000000000-01", "00-4BF92F3577B34DA6A3CE929D0E0E4736-" + SPAN + "-01",
            "00-" + TRACE + "-" + SPAN + "-zz", "00_" + TRACE + "-" + SPAN + "-01", "01-" + TRACE + "-" + SPAN + "-01x" })
    void anythingElseIsNoContext(String text) {
        assertNull(TraceParents.parse(text), text);
    }

    @Test
    void absentIsNoContext() {
        assertNull(TraceParents.parse(null));
    }
}
