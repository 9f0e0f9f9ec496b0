package io.webhookbuffer.trace;

import org.jboss.logging.MDC;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/**
 * One ingest request's span: its {@link #traceParent()} is stored with the event, and it ends with the request's
 * answer ({@link #end}). {@link #OFF} when tracing is off: no context, nothing to end.
 */
public final class IngestTrace {

    public static final IngestTrace OFF = new IngestTrace(null);
    /** Quarkus's keys for the trace in the log context (the JSON log's {@code mdc}). */
    public static final String TRACE_ID = "traceId";
    public static final String SPAN_ID = "spanId";

    private final Span span;
    private final String traceParent;

    IngestTrace(Span span) {
        this.span = span;
        this.traceParent = span == null ? null : TraceParents.format(span.getSpanContext());
    }

    /** The W3C text of this span's context, stored with the event; null when tracing is off. */
    public String traceParent() {
        return traceParent;
    }

    /** Puts the trace and span ids in the log context of the request (ended with it: {@code ops.RequestLogging}). */
    public void logContext() {
        if (span != null) {
            MDC.put(TRACE_ID, span.getSpanContext().getTraceId());
            MDC.put(SPAN_ID, span.getSpanContext().getSpanId());
        }
    }

    /**
     * Ends the span with the request's answer: its HTTP status, outcome ({@code buffer_ingest_total}'s label, null when
     * it has none) and the event's id (null when there is none, as for a refused signature).
     */
    public void end(int status, String outcome, String eventId) {
        if (span == null) {
            return;
        }
        span.setAttribute(Tracing.STATUS, (long) status);
        if (outcome != null) {
            span.setAttribute(Tracing.OUTCOME, outcome);
        }
        if (eventId != null) {
            span.setAttribute(Tracing.EVENT_ID, eventId);
        }
        if (status >= 500) {
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
    }
}
