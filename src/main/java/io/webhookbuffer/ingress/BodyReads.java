package io.webhookbuffer.ingress;

import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;

/** How a route that reads a body itself (the ingest gate, the control plane's body gate) starts reading it. */
public final class BodyReads {

    private BodyReads() {
    }

    /**
     * Arms the body's deadline ({@code late} after {@code timeoutMillis}), hands each chunk to {@code chunk} and the
     * end to {@code end}, tells an HTTP/1.1 sender that waits on {@code Expect: 100-continue} to send (only now: a
     * refusal from the head alone is answered before it sends a byte), and resumes the request. Answers the timer's
     * id, for the caller to cancel once the body is complete or refused.
     */
    public static long start(Vertx vertx, RoutingContext ctx, long timeoutMillis, Runnable late, Handler<Buffer> chunk,
            Runnable end) {
        HttpServerRequest request = ctx.request();
        long deadline = vertx.setTimer(timeoutMillis, id -> late.run());
        request.handler(chunk);
        request.endHandler(v -> end.run());
        if (request.version() == HttpVersion.HTTP_1_1
                && "100-continue".equalsIgnoreCase(request.getHeader(HttpHeaders.EXPECT))) {
            ctx.response().writeContinue();
        }
        request.resume();
        return deadline;
    }
}
