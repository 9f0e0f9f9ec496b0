package io.webhookbuffer.ops;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;

import org.jboss.logging.Logger;
import org.jboss.logging.MDC;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

import io.webhookbuffer.ingress.IngressReply;
import io.webhookbuffer.tenant.Tenant;

/**
 * Request ids and log context. Every request gets an id (the caller's {@code X-Request-ID} when it is a plain token
 * of at most 64 characters, else a new one), echoed in the {@code X-Request-ID} answer header. While the request runs,
 * the log context (MDC) carries {@code requestId}, {@code tenantId} (from /webhook/{id} and /control/tenants/{id})
 * and, for an ingest answer, {@code eventId}; the JSON log format prints them as fields. Quarkus keeps the MDC in the
 * request's own (duplicated) Vert.x context, so one request's fields never show on another's lines.
 *
 * <p>Never logged: headers, query strings (the status page token), bodies, signatures.
 */
public class RequestLogging {

    private static final Logger LOG = Logger.getLogger(RequestLogging.class);
    public static final String HEADER = "X-Request-ID";
    static final String REQUEST_ID = "requestId";
    static final String TENANT_ID = "tenantId";
    static final String EVENT_ID = "eventId";
    private static final String PROPERTY = RequestLogging.class.getName();
    /** A per-process prefix and a counter: unique enough to find a request's lines, cheap on the hot path. */
    private static final String PREFIX = Long.toString(ThreadLocalRandom.current().nextLong() >>> 24, 36) + "-";
    private static final AtomicLong SEQUENCE = new AtomicLong();

    @ServerRequestFilter(preMatching = true)
    public void start(ContainerRequestContext request) {
        String id = request.getHeaderString(HEADER);
        if (!isPlainToken(id)) {
            id = PREFIX + Long.toString(SEQUENCE.incrementAndGet(), 36);
        }
        request.setProperty(PROPERTY, id);
        MDC.put(REQUEST_ID, id);
        String tenant = tenantOf(request.getUriInfo().getPath());
        if (tenant != null) {
            MDC.put(TENANT_ID, tenant);
        }
    }

    @ServerResponseFilter
    public void end(ContainerRequestContext request, ContainerResponseContext response) {
        Object id = request.getProperty(PROPERTY);
        if (id != null) {
            response.getHeaders().putSingle(HEADER, id);
        }
        if (response.getEntity() instanceof IngressReply reply && reply.eventId() != null) {
            MDC.put(EVENT_ID, reply.eventId());
        }
        if (LOG.isDebugEnabled()) {
            LOG.debugf("%s %s -> %d", request.getMethod(), request.getUriInfo().getPath(), response.getStatus());
        }
        MDC.remove(EVENT_ID);
        MDC.remove(TENANT_ID);
        MDC.remove(REQUEST_ID);
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
