package io.webhookbuffer.trace;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * Starts the buffer's spans (docs/operations.md "Tracing" lists each with its attributes). Off ({@code
 * quarkus.otel.sdk.disabled}, true unless an OTLP endpoint is configured: {@link TracingSwitch}), every method returns
 * a shared no-op without touching its arguments, and its callers pass constants (a non-capturing function, never a
 * lambda made per call), so the off path allocates nothing. On, a span costs its ids, a few attributes and, when
 * sampled, a place in the SDK's export queue (full: dropped, never waited for). Safe on the event loop and any other
 * thread.
 */
@ApplicationScoped
public class Tracing {

    /** The span names; the sampler ({@link LinkedSampler}) tells the batch spans by them. */
    public static final String INGEST = "ingest";
    public static final String COMMIT = "group commit";
    public static final String DELIVER = "deliver batch";
    /** The header a sender's (and the origin's batch request's) W3C trace context travels in. */
    public static final String TRACEPARENT = "traceparent";

    static final AttributeKey<String> TENANT = AttributeKey.stringKey("buffer.tenant");
    static final AttributeKey<String> PROVIDER = AttributeKey.stringKey("buffer.provider");
    static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("buffer.outcome");
    static final AttributeKey<String> EVENT_ID = AttributeKey.stringKey("buffer.event_id");
    static final AttributeKey<Long> EVENTS = AttributeKey.longKey("buffer.batch.events");
    static final AttributeKey<Long> STORED = AttributeKey.longKey("buffer.batch.stored");
    static final AttributeKey<Long> STATUS = AttributeKey.longKey("http.response.status_code");
    static final AttributeKey<String> METHOD = AttributeKey.stringKey("http.request.method");
    static final AttributeKey<String> LINK = AttributeKey.stringKey("buffer.link");
    /** The link of an ingest span to a sender's context its tenant does not trust. */
    static final Attributes SENDER_LINK = Attributes.of(LINK, "sender");

    private final Tracer tracer;
    private final boolean on;

    public Tracing(OpenTelemetry openTelemetry,
            @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "true") boolean disabled) {
        this.tracer = openTelemetry.getTracer("io.webhookbuffer");
        this.on = !disabled;
    }

    public boolean on() {
        return on;
    }

    /**
     * The server span of one ingest request whose signature verified, started at {@code receivedAt} (epoch ms, the
     * event's received time: the span covers the verification too). Only an authenticated request gets one, so a
     * sender who has proved nothing costs no span, no look at its {@code traceparent} and no place in the export queue
     * every tenant shares. A sender's {@code traceparent} is its parent when the tenant trusts it ({@code
     * trustSender}); otherwise the span starts a trace of its own and only links to the sender's.
     */
    public IngestTrace ingest(String tenantId, String provider, boolean trustSender, Function<String, String> headers,
            long receivedAt) {
        if (!on) {
            return IngestTrace.OFF;
        }
        SpanContext sender = TraceParents.parse(headers.apply(TRACEPARENT));
        SpanBuilder span = tracer.spanBuilder(INGEST).setSpanKind(SpanKind.SERVER)
                .setStartTimestamp(receivedAt, TimeUnit.MILLISECONDS)
                .setAttribute(TENANT, tenantId).setAttribute(PROVIDER, provider).setAttribute(METHOD, "POST");
        if (sender != null && trustSender) {
            span.setParent(Context.root().with(Span.wrap(sender)));
        } else {
            span.setNoParent();
            if (sender != null) {
                span.addLink(sender, SENDER_LINK);
            }
        }
        return new IngestTrace(span.startSpan());
    }

    /**
     * The span of one group commit of {@code events}, linked to each one's ingest span ({@code traceParent} reads an
     * event's stored context: a non-capturing function, so the caller's off path makes nothing).
     */
    public <T> BatchTrace commit(List<T> events, Function<? super T, String> traceParent) {
        if (!on) {
            return BatchTrace.OFF;
        }
        SpanBuilder span = tracer.spanBuilder(COMMIT).setSpanKind(SpanKind.INTERNAL).setNoParent()
                .setAttribute(EVENTS, (long) events.size());
        return new BatchTrace(linked(span, events, traceParent).startSpan());
    }

    /**
     * The client span of one batch to a tenant's origin, linked to the ingest span of every event it carries; its
     * {@link BatchTrace#traceParent()} goes on the request.
     */
    public <T> BatchTrace delivery(String tenantId, String provider, List<T> events,
            Function<? super T, String> traceParent) {
        if (!on) {
            return BatchTrace.OFF;
        }
        SpanBuilder span = tracer.spanBuilder(DELIVER).setSpanKind(SpanKind.CLIENT).setNoParent()
                .setAttribute(TENANT, tenantId).setAttribute(PROVIDER, provider).setAttribute(METHOD, "POST")
                .setAttribute(EVENTS, (long) events.size());
        return new BatchTrace(linked(span, events, traceParent).startSpan());
    }

    private static <T> SpanBuilder linked(SpanBuilder span, List<T> events, Function<? super T, String> traceParent) {
        for (T event : events) {
            SpanContext ingest = TraceParents.parse(traceParent.apply(event));
            if (ingest != null) {
                span.addLink(ingest);
            }
        }
        return span;
    }
}
