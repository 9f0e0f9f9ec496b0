package io.webhookbuffer.ops;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;

import org.jboss.logging.Logger;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.ingress.IngressGate;
import io.webhookbuffer.ingress.IngressReply;
import io.webhookbuffer.ingress.QuarkusHttpInternals;
import io.webhookbuffer.ingress.RequestLog;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.trace.IngestTrace;

/**
 * Request ids and log context. Every request gets an id (the caller's {@code X-Request-ID} when it is a plain token
 * of at most 64 characters, else a new one), echoed in the {@code X-Request-ID} answer header. The id is given by a
 * Vert.x route that runs first, ahead of {@link IngressGate} (and as a failure handler, for a request Vert.x Web fails
 * before any route runs), so the answers the gate writes before RESTEasy carry it too. While the request runs,
 * the log context (MDC) carries {@code requestId}, {@code tenantId} (from /webhook/{id} and /control/tenants/{id})
 * and, for an ingest answer, {@code eventId}; the JSON log format prints them as fields. Quarkus keeps the MDC in the
 * request's own (duplicated) Vert.x context, so one request's fields never show on another's lines. The same context
 * and the same DEBUG line ({@code POST /webhook/t -> 202}) for an ingest answered by RESTEasy (its filters here) and
 * for one the ingest gate's route answers directly ({@link RequestLog}).
 *
 * <p>Never logged: headers, query strings (a status token someone still puts there), bodies, signatures.
 */
@Singleton
public class RequestLogging implements RequestLog {

    private static final Logger LOG = Logger.getLogger(RequestLogging.class);
    public static final String HEADER = "X-Request-ID";
    static final String REQUEST_ID = "requestId";
    static final String TENANT_ID = "tenantId";
    static final String EVENT_ID = "eventId";
    private static final String PROPERTY = RequestLogging.class.getName();
    /** A per-process prefix and a counter: unique enough to find a request's lines, cheap on the hot path. */
    private static final String PREFIX = Long.toString(ThreadLocalRandom.current().nextLong() >>> 24, 36) + "-";
    private static final AtomicLong SEQUENCE = new AtomicLong();
    /** Ahead of every route of the gate. */
    static final int ORDER = QuarkusHttpInternals.REQUEST_ORDER;

    void routes(@Observes Router router) {
        router.route().order(ORDER).handler(this::identify).failureHandler(this::identify);
    }

    /** Gives the request its id, on the answer's headers from the start, and in the log context. */
    private void identify(RoutingContext ctx) {
        if (ctx.get(PROPERTY) == null) {
            String id = ctx.request().getHeader(HEADER);
            if (!isPlainToken(id)) {
                id = PREFIX + Long.toString(SEQUENCE.incrementAndGet(), 36);
            }
            ctx.put(PROPERTY, id);
            ctx.response().putHeader(HEADER, id);
            MDC.put(REQUEST_ID, id);
        }
        ctx.next();
    }

    @ServerRequestFilter(preMatching = true)
    public void start(ContainerRequestContext request, RoutingContext routing) {
        begin(routing, request.getUriInfo().getPath());
    }

    @ServerResponseFilter
    public void end(ContainerRequestContext request, ContainerResponseContext response) {
        finish(request.getMethod(), request.getUriInfo().getPath(), response.getStatus(), response.getEntity());
    }

    @Override
    public void started(RoutingContext ctx) {
        begin(ctx, ctx.normalizedPath());
    }

    @Override
    public void answered(RoutingContext ctx, int status, IngressReply reply) {
        finish(ctx.request().method().name(), ctx.normalizedPath(), status, reply);
    }

    private static void begin(RoutingContext routing, String path) {
        String id = routing.get(PROPERTY); // given by identify: every request passes that route
        if (id != null) {
            MDC.put(REQUEST_ID, id);
        }
        String tenant = tenantOf(path);
        if (tenant != null) {
            MDC.put(TENANT_ID, tenant);
        }
    }

    private static void finish(String method, String path, int status, Object entity) {
        if (entity instanceof IngressReply reply && reply.eventId() != null) {
            MDC.put(EVENT_ID, reply.eventId());
        }
        if (LOG.isDebugEnabled()) {
            LOG.debugf("%s %s -> %d", method, path, status);
        }
        MDC.remove(EVENT_ID);
        MDC.remove(TENANT_ID);
        MDC.remove(REQUEST_ID);
        MDC.remove(IngestTrace.TRACE_ID); // put by the ingest span (IngestService), when tracing is on
        MDC.remove(IngestTrace.SPAN_ID);
    }

    /** The tenant id in an ingest or tenant command path, when it is a valid id. */
    static String tenantOf(String path) {
        String rest = path.startsWith("/webhook/") ? path.substring(9)
                : path.startsWith("/control/tenants/") ? path.substring(17) : null;
        if (rest == null) {
            return null;
        }
        int slash = rest.indexOf('/');
        String id = slash >= 0 ? rest.substring(0, slash) : rest;
        return Tenant.isValidId(id) ? id : null;
    }

    static boolean isPlainToken(String id) {
        if (id == null || id.isEmpty() || id.length() > 64) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
                    || c == '.' || c == ':')) {
                return false;
            }
        }
        return true;
    }
}
