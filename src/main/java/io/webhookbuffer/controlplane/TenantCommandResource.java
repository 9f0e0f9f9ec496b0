package io.webhookbuffer.controlplane;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.RestPath;

import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.webhookbuffer.queue.QueueInspector;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.tenant.TenantInvalidation;

/**
 * Tenant provisioning: {@code PUT /control/tenants/{id}} (idempotent upsert), {@code GET /control/tenants/{id}} and
 * {@code GET /control/tenants/{id}/backlog}.
 * Every request is a signed command (see {@link CommandAuthenticator}); the signature covers the raw body, which is
 * empty for a GET.
 */
@Path("/control/tenants/{tenantId}")
@Produces(MediaType.APPLICATION_JSON)
public class TenantCommandResource {

    private final CommandAuthenticator auth;
    private final TenantStore store;
    private final TenantInvalidation invalidation;
    private final QueueInspector queue;
    private final ObjectMapper json;
    private final long maxBodyCeiling;

    public TenantCommandResource(CommandAuthenticator auth, TenantStore store, TenantInvalidation invalidation,
            QueueInspector queue, ObjectMapper json, @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodyCeiling) {
        this.auth = auth;
        this.store = store;
        this.invalidation = invalidation;
        this.queue = queue;
        this.json = json;
        this.maxBodyCeiling = maxBodyCeiling.asLongValue();
    }

    @PUT
    public Uni<Response> upsert(@RestPath String tenantId, HttpServerRequest request, byte[] body) {
        byte[] raw = body == null ? new byte[0] : body;
        return auth.authenticate(request, raw)
                .map(ignored -> {
                    requireValidId(tenantId);
                    return TenantCommand.parse(json, raw, maxBodyCeiling);
                })
                .flatMap(command -> store.upsert(tenantId, command))
                .call(view -> invalidation.changed(tenantId))
                .map(view -> Response.ok(view).build())
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    @GET
    public Uni<Response> get(@RestPath String tenantId, HttpServerRequest request) {
        return auth.authenticate(request, new byte[0])
                .flatMap(ignored -> {
                    requireValidId(tenantId);
                    return store.find(tenantId);
                })
                .map(view -> {
                    if (view == null) {
                        throw ProblemException.notFound("No tenant '" + tenantId + "'.");
                    }
                    return Response.ok(view).build();
                })
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    /** {@code GET /control/tenants/{id}/backlog}: depth, oldest age, next attempt and state of the tenant's queue. */
    @GET
    @Path("/backlog")
    public Uni<Response> backlog(@RestPath String tenantId, HttpServerRequest request) {
        return auth.authenticate(request, new byte[0])
                .flatMap(ignored -> {
                    requireValidId(tenantId);
                    return queue.backlog(tenantId);
                })
                .map(backlog -> Response.ok(backlog).build())
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    static void requireValidId(String tenantId) {
        if (!Tenant.isValidId(tenantId)) {
            throw ProblemException.badRequest("Tenant ids are 1 to 64 characters of A-Z, a-z, 0-9, '_' and '-'.");
        }
    }
}
