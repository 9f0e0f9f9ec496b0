package io.webhookbuffer.controlplane;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestPath;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.pgclient.PgException;
import io.webhookbuffer.queue.EventFinder;
import io.webhookbuffer.queue.EventFinder.Found;

/**
 * {@code GET /control/tenants/{tenantId}/events/{eventId}}, "where is my event?": each stored event that answers to the
 * id with its state ({@code queued}, {@code dead_lettered}, {@code delivered}) and, at the top, the state of the first
 * ({@code unknown} when none answers: never accepted, or accepted longer ago than {@code buffer.dedupe.retention}).
 * A signed command like every other; an unknown tenant is a 404.
 */
@Path("/control/tenants/{tenantId}/events/{eventId}")
@Produces(MediaType.APPLICATION_JSON)
public class EventLookupResource {

    /** PostgreSQL's query_canceled: the statement ran past its timeout. */
    private static final String CANCELED = "57014";

    private final CommandAuthenticator auth;
    private final EventFinder finder;
    private final TenantStore tenants;

    public EventLookupResource(CommandAuthenticator auth, EventFinder finder, TenantStore tenants) {
        this.auth = auth;
        this.finder = finder;
        this.tenants = tenants;
    }

    @GET
    public Uni<Response> find(@RestPath String tenantId, @RestPath String eventId, HttpServerRequest request) {
        return auth.authenticate(request, new byte[0]).flatMap(ignored -> {
            TenantCommandResource.requireValidId(tenantId);
            if (eventId.isBlank()) {
                throw ProblemException.badRequest("The event id is empty.");
            }
            return finder.find(tenantId, eventId);
        }).flatMap(found -> found.isEmpty()
                ? tenants.find(tenantId).map(tenant -> {
                    if (tenant == null) {
                        throw ProblemException.notFound("No tenant '" + tenantId + "'.");
                    }
                    return answer(tenantId, eventId, found);
                })
                : Uni.createFrom().item(answer(tenantId, eventId, found)))
                .onFailure(EventLookupResource::timedOut).transform(e -> ProblemException.unavailable("search_timeout",
                        "Looking for the event read the tenant's queue for longer than " + EventFinder.TIMEOUT_MILLIS
                                + " ms (its backlog is large); retry later or look in the dead letters by time."))
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    private static Response answer(String tenantId, String eventId, List<Found> found) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tenantId", tenantId);
        body.put("eventId", eventId);
        body.put("state", found.isEmpty() ? "unknown" : found.get(0).state());
        body.put("events", found);
        return Response.ok(body).build();
    }

    private static boolean timedOut(Throwable e) {
        return e instanceof PgException pg && CANCELED.equals(pg.getSqlState());
    }
}
