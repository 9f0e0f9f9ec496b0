package io.webhookbuffer.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;

/** Which spans are kept: parents decide, links decide a batch, the ratio decides a new trace. */
class LinkedSamplerTests {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
    private static final LinkData SAMPLED = link("00f067aa0ba902b7", true);
    private static final LinkData UNSAMPLED = link("00f067aa0ba902b8", false);

    @Test
    void aBatchIsKeptExactlyWhenOneOfItsEventsWas() {
        LinkedSampler never = new LinkedSampler(0.0);
        for (String batch : List.of(Tracing.COMMIT, Tracing.DELIVER)) {
            assertEquals(SamplingDecision.RECORD_AND_SAMPLE, decide(never, batch, List.of(UNSAMPLED, SAMPLED)));
            LinkedSampler always = new LinkedSampler(1.0);
            assertEquals(SamplingDecision.DROP, decide(always, batch, List.of(UNSAMPLED, UNSAMPLED)));
        }
    }

    @Test
    void aBatchWithoutLinkedEventsAndANewIngestTraceFollowTheRatio() {
        assertEquals(SamplingDecision.RECORD_AND_SAMPLE, decide(new LinkedSampler(1.0), Tracing.DELIVER, List.of()));
        assertEquals(SamplingDecision.DROP, decide(new LinkedSampler(0.0), Tracing.DELIVER, List.of()));
        assertEquals(SamplingDecision.RECORD_AND_SAMPLE, decide(new LinkedSampler(1.0), Tracing.INGEST, List.of()));
        assertEquals(SamplingDecision.DROP, decide(new LinkedSampler(0.0), Tracing.INGEST, List.of()));
    }

    @Test
    void aSendersLinkNeverDecides() {
        assertEquals(SamplingDecision.DROP, decide(new LinkedSampler(0.0), Tracing.INGEST, List.of(SAMPLED)));
    }

    @Test
    void aTrustedParentDecides() {
        Context sampled = Context.root().with(Span.wrap(SAMPLED.getSpanContext()));
        Context unsampled = Context.root().with(Span.wrap(UNSAMPLED.getSpanContext()));
        assertEquals(SamplingDecision.RECORD_AND_SAMPLE, new LinkedSampler(0.0)
                .shouldSample(sampled, TRACE, Tracing.INGEST, SpanKind.SERVER, Attributes.empty(), List.of())
                .getDecision());
        assertEquals(SamplingDecision.DROP, new LinkedSampler(1.0)
                .shouldSample(unsampled, TRACE, Tracing.INGEST, SpanKind.SERVER, Attributes.empty(), List.of())
                .getDecision());
    }

    private static SamplingDecision decide(LinkedSampler sampler, String name, List<LinkData> links) {
        return sampler.shouldSample(Context.root(), TRACE, name, SpanKind.INTERNAL, Attributes.empty(), links)
                .getDecision();
    }

    private static LinkData link(String spanId, boolean sampled) {
        return LinkData.create(SpanContext.createFromRemoteParent(TRACE, spanId,
                sampled ? TraceFlags.getSampled() : TraceFlags.getDefault(), TraceState.getDefault()));
    }
}
