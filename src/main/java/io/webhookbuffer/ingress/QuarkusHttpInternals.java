package io.webhookbuffer.ingress;

import io.quarkus.vertx.http.runtime.RouteConstants;
import io.quarkus.vertx.http.runtime.VertxHttpRecorder;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;

/**
 * Every use the buffer makes of Quarkus's HTTP internals ({@code io.quarkus.vertx.http.runtime}: runtime classes,
 * not a documented API), in one place, so that an upgrade that moves them fails here and in
 * {@code QuarkusHttpInternalsTests}, not at a distance:
 * <ul>
 * <li>the root handler of Quarkus's HTTP server ({@link #rootHandler}): our own servers, the webhook port
 * ({@link EdgePort}) and the management port ({@code ops.ManagementPort}), hand each request to it, so that the
 * routes, filters, graceful shutdown and request ids are Quarkus's own;</li>
 * <li>the order of Quarkus's own routes ({@link RouteConstants}): ours run after Quarkus's first handlers (its start
 * time, access log, CORS, body handler) and just ahead of its upload limit, whose 413 has no body, so that every
 * answer of ours is the documented JSON. Ours, in the order they run: {@link #PORT_ORDER}, {@link #REQUEST_ORDER},
 * {@link #HEAD_ORDER}, {@link #BODY_ORDER}.</li>
 * </ul>
 */
public final class QuarkusHttpInternals {

    /** Quarkus's ceiling check on the body ({@code quarkus.http.limits.max-body-size}): 413 without a body. */
    static final int UPLOAD_LIMIT = RouteConstants.ROUTE_ORDER_UPLOAD_LIMIT;
    /** First of ours: which port a path is served on ({@code ops.ManagementPort}). */
    public static final int PORT_ORDER = UPLOAD_LIMIT - 4;
    /** Every request before any check: the refusal once shutdown began, and the request's id (ops). */
    public static final int REQUEST_ORDER = UPLOAD_LIMIT - 3;
    /** Every request's head ({@link IngressGate}). */
    public static final int HEAD_ORDER = UPLOAD_LIMIT - 2;
    /** The routes that read a body themselves, within its bounds: the ingest path, the control plane's. */
    public static final int BODY_ORDER = UPLOAD_LIMIT - 1;

    private QuarkusHttpInternals() {
    }

    /**
     * Quarkus's root handler (URI check, duplicated context, graceful-shutdown tracking, then the application
     * router); set once Quarkus's HTTP server is started.
     *
     * @throws IllegalStateException when Quarkus has none (not started, or an upgrade moved it)
     */
    public static Handler<HttpServerRequest> rootHandler() {
        Handler<HttpServerRequest> root = VertxHttpRecorder.getRootHandler();
        if (root == null) {
            throw new IllegalStateException("Quarkus's HTTP root handler is not set (VertxHttpRecorder.getRootHandler)");
        }
        return root;
    }
}
