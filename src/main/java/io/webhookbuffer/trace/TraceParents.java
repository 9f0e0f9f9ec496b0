package io.webhookbuffer.trace;

import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanId;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceId;
import io.opentelemetry.api.trace.TraceState;

/**
 * The W3C {@code traceparent} text (https://www.w3.org/TR/trace-context/#traceparent-header) of a span context, as it
 * is stored with an event and sent to the origin, and back. Version 00 is written; a later version is read by its
 * first four fields, as the recommendation asks. Anything else is no context (null), never an error: the text may come
 * from a sender.
 */
public final class TraceParents {

    /** {@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}. */
    static final int LENGTH = 55;
    private static final int TRACE_ID_AT = 3;
    private static final int SPAN_ID_AT = 36;
    private static final int FLAGS_AT = 53;

    private TraceParents() {
    }

    /** The text of a valid context, else null. */
    public static String format(SpanContext context) {
        if (context == null || !context.isValid()) {
            return null;
        }
        return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-" + context.getTraceFlags().asHex();
    }

    /** The remote context the text names, or null when it is absent or not a valid traceparent. */
    public static SpanContext parse(String text) {
        if (!wellFormed(text)) {
            return null;
        }
        String traceId = text.substring(TRACE_ID_AT, SPAN_ID_AT - 1);
        String spanId = text.substring(SPAN_ID_AT, FLAGS_AT - 1);
        String flags = text.substring(FLAGS_AT, LENGTH);
        if (!TraceId.isValid(traceId) || !SpanId.isValid(spanId) || !isLowerHex(flags)) {
            return null;
        }
        return SpanContext.createFromRemoteParent(traceId, spanId, TraceFlags.fromHex(flags, 0), TraceState.getDefault());
    }

    /** The dashes where they belong, and a version this reader may take: 00 exactly as long, a later one longer. */
    private static boolean wellFormed(String text) {
        if (text == null || text.length() < LENGTH || text.charAt(2) != '-' || text.charAt(SPAN_ID_AT - 1) != '-'
                || text.charAt(FLAGS_AT - 1) != '-') {
            return false;
        }
        String version = text.substring(0, 2);
        boolean length = "00".equals(version) ? text.length() == LENGTH
                : text.length() == LENGTH || text.charAt(LENGTH) == '-';
        return length && isLowerHex(version) && !"ff".equals(version);
    }

    private static boolean isLowerHex(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }
}
