package io.webhookbuffer.trace;

import java.util.List;

import jakarta.inject.Singleton;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;

/**
 * Which spans are kept (Quarkus takes a {@link Sampler} bean over {@code quarkus.otel.traces.sampler}). A span with a
 * parent follows its parent's decision; an ingest span without one (a new trace) is kept with the probability
 * {@code quarkus.otel.traces.sampler.arg} (by its trace id, as {@code traceidratio}); a group commit or delivery
 * batch, which has no parent but links to its events' ingest spans, is kept exactly when one of those was kept, so a
 * sampled event's trace always has its commit and its deliveries, and at 1 % a batch of unsampled events costs
 * nothing to export. A sender's link never decides: a sender could otherwise ask for every one of its requests to be
 * kept. A batch with no linked context at all (its events were stored while tracing was off) falls to the ratio.
 */
@Singleton
public class LinkedSampler implements Sampler {

    private final Sampler ratio;

    public LinkedSampler(@ConfigProperty(name = "quarkus.otel.traces.sampler.arg", defaultValue = "1.0") double ratio) {
        this.ratio = Sampler.parentBased(Sampler.traceIdRatioBased(ratio));
    }

    @Override
    public SamplingResult shouldSample(Context parentContext, String traceId, String name, SpanKind spanKind,
            Attributes attributes, List<LinkData> parentLinks) {
        SpanContext parent = Span.fromContext(parentContext).getSpanContext();
        boolean batch = Tracing.COMMIT.equals(name) || Tracing.DELIVER.equals(name);
        if (parent.isValid() || !batch || parentLinks.isEmpty()) {
            return ratio.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
        }
        for (LinkData link : parentLinks) {
            if (link.getSpanContext().isSampled()) {
                return SamplingResult.recordAndSample();
            }
        }
        return SamplingResult.drop();
    }

    @Override
    public String getDescription() {
        return "LinkedSampler{" + ratio.getDescription() + "}";
    }
}
