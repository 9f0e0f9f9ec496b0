package io.webhookbuffer.trace;

import org.jboss.logging.MDC;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;

/** The span of a group commit or of a delivery batch; {@link #OFF} when tracing is off. */
public final class BatchTrace {

    public static final BatchTrace OFF = new BatchTrace(null);

    private final Span span;

    BatchTrace(Span span) {
        this.span = span;
    }

    /** The W3C text of this span's context (the batch request's {@code traceparent}); null when off. */
    public String traceParent() {
        return span == null ? null : TraceParents.format(span.getSpanContext());
    }

    /** Ends a group commit's span: how many of its events were stored (the rest were duplicates or not stored). */
    public void committed(boolean succeeded, int stored) {
        if (span == null) {
            return;
        }
        span.setAttribute(Tracing.STORED, (long) stored);
        end(succeeded ? "committed" : "failed", succeeded);
    }

    /**
     * Ends a delivery batch's span with the origin's answer: its status (0 when none came) and what the drain makes of
     * it ({@code outcome}: delivered, refused, no_answer, unreachable, circuit_open).
     */
    public void delivered(int status, String outcome, boolean succeeded) {
        if (span == null) {
            return;
        }
        if (status > 0) {
            span.setAttribute(Tracing.STATUS, (long) status);
        }
        end(outcome, succeeded);
    }

    /**
     * Puts this span's ids in the log context, for the lines the drain writes as it decides about the batch's answer
     * (those written after a later database answer do not have them); {@link #clearLogContext} takes them out.
     */
    public void logContext() {
        if (span != null) {
            MDC.put(IngestTrace.TRACE_ID, span.getSpanContext().getTraceId());
            MDC.put(IngestTrace.SPAN_ID, span.getSpanContext().getSpanId());
        }
    }

    public void clearLogContext() {
        if (span != null) {
            MDC.remove(IngestTrace.TRACE_ID);
            MDC.remove(IngestTrace.SPAN_ID);
        }
    }

    private void end(String outcome, boolean succeeded) {
        span.setAttribute(Tracing.OUTCOME, outcome);
        if (!succeeded) {
            // The outcome only: an origin's answer or a database's message may quote the batch, so neither goes here.
            span.setStatus(StatusCode.ERROR, outcome);
        }
        span.end();
    }
}
