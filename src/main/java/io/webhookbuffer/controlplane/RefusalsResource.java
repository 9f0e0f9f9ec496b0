package io.webhookbuffer.controlplane;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestPath;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.webhookbuffer.ingress.RefusalLog;

/**
 * {@code GET /control/tenants/{tenantId}/refusals}, "why was it refused?": the tenant's latest refused requests from
 * every replica, newest first ({@link RefusalLog}); {@code complete} is false when Redis could not be read and the
 * answer holds this replica's only.
 */
@Path("/control/tenants/{tenantId}/refusals")
@Produces(MediaType.APPLICATION_JSON)
public class RefusalsResource {

    private final CommandAuthenticator auth;
    private final RefusalLog refusals;

    public RefusalsResource(CommandAuthenticator auth, RefusalLog refusals) {
        this.auth = auth;
        this.refusals = refusals;
    }

    @GET
    public Uni<Response> list(@RestPath String tenantId, HttpServerRequest request) {
        return auth.authenticate(request, new byte[0]).flatMap(ignored -> {
            TenantCommandResource.requireValidId(tenantId);
            return refusals.read(tenantId);
        }).map(recent -> {
            Map<String, Object> body = new LinkedHashMap<>();
            body.put("tenantId", tenantId);
            body.put("complete", recent.complete());
            body.put("refusals", recent.refusals());
            return Response.ok(body).build();
        }).onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }
}
