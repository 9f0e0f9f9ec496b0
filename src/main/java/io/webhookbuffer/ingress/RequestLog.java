package io.webhookbuffer.ingress;

import io.vertx.ext.web.RoutingContext;

/**
 * Told when {@link IngestRoute} takes a request and when it answers it, so that the request has the log context
 * (MDC) and the log line a request RESTEasy serves has (ops.RequestLogging implements it, for both). Called on the
 * request's own Vert.x context; cheap, never blocks.
 */
public interface RequestLog {

    /** Before the admission: the log context of the request (its id, the tenant of its path). */
    void started(RoutingContext ctx);

    /** The answer is decided: its event id joins the log context for the request's line, then the context ends. */
    void answered(RoutingContext ctx, int status, IngressReply reply);
}
