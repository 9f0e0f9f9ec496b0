package io.webhookbuffer.controlplane;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.RestPath;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.egress.OriginTrust;
import io.webhookbuffer.queue.Backlog;
import io.webhookbuffer.queue.DrainScheduler;
import io.webhookbuffer.queue.QueueInspector;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.tenant.TenantInvalidation;

/**
 * Tenant provisioning and steering: {@code PUT /control/tenants/{id}} (idempotent upsert; {@code "active": false}
 * deactivates), {@code GET /control/tenants/{id}}, {@code POST .../pause} and {@code .../resume} (delivery),
 * {@code POST .../secrets} (rotation) and {@code GET .../backlog}. State-changing commands answer the tenant with
 * {@code "replay": true} when its state was already so (nothing changed).
 * Every request is a signed command (see {@link CommandAuthenticator}); the signature covers the raw body, which is
 * empty for a GET, and in v2 the method and the path, so one command's signature is good for no other.
 */
@Path("/control/tenants/{tenantId}")
@Produces(MediaType.APPLICATION_JSON)
public class TenantCommandResource {

    private static final TypeReference<LinkedHashMap<String, Object>> AS_MAP = new TypeReference<>() {
    };

    private final CommandAuthenticator auth;
    private final TenantStore store;
    private final TenantInvalidation invalidation;
    private final QueueInspector queue;
    private final DrainScheduler drains;
    private final ObjectMapper json;
    private final OriginTrust trust;
    private final long maxBodyCeiling;

    public TenantCommandResource(CommandAuthenticator auth, TenantStore store, TenantInvalidation invalidation,
            QueueInspector queue, DrainScheduler drains, ObjectMapper json, OriginTrust trust,
            @ConfigProperty(name = "quarkus.http.limits.max-body-size") MemorySize maxBodyCeiling) {
        this.auth = auth;
        this.store = store;
        this.invalidation = invalidation;
        this.queue = queue;
        this.drains = drains;
        this.json = json;
        this.trust = trust;
        this.maxBodyCeiling = maxBodyCeiling.asLongValue();
    }

    @PUT
    public Uni<Response> upsert(@RestPath String tenantId, HttpServerRequest request, RoutingContext routing) {
        byte[] raw = ControlBodyGate.body(routing);
        return auth.authenticate(request, raw)
                .map(ignored -> {
                    requireValidId(tenantId);
                    return allowedOrigin(TenantCommand.parse(json, raw, maxBodyCeiling));
                })
                .flatMap(command -> store.upsert(tenantId, command))
                .call(applied -> applied.replay() ? Uni.createFrom().voidItem() : invalidation.changed(tenantId))
                .map(this::answer)
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    /** A command that sets an originUrl the trust rules refuse changes nothing: 400 origin_not_allowed. */
    private TenantCommand allowedOrigin(TenantCommand command) {
        String refusal = command.originUrl() == null ? null : trust.originUrlRefusal(command.originUrl());
        if (refusal != null) {
            throw ProblemException.originNotAllowed(refusal);
        }
        return command;
    }

    /**
     * Stops delivery for the tenant on every replica (the flag is in PostgreSQL, read by each drainer with the
     * tenant's head); ingest keeps buffering. A batch already on its way to the origin completes.
     */
    @POST
    @Path("/pause")
    public Uni<Response> pause(@RestPath String tenantId, HttpServerRequest request, RoutingContext routing) {
        return steer(tenantId, request, routing, () -> store.setPaused(tenantId, true));
    }

    /** Resumes delivery: this replica's drainer is woken now; the others' sweeps find the tenant too. */
    @POST
    @Path("/resume")
    public Uni<Response> resume(@RestPath String tenantId, HttpServerRequest request, RoutingContext routing) {
        return steer(tenantId, request, routing, () -> store.setPaused(tenantId, false))
                .invoke(response -> {
                    if (response.getStatus() == 200) {
                        drains.wake(tenantId);
                    }
                });
    }

    /**
     * Secret rotation: {@code {"add": "<secret>"}} makes it the current secret (the others stay accepted);
     * {@code {"retire": "<fingerprint>"}} stops accepting the secret with that fingerprint (see GET's
     * {@code secretFingerprints}).
     */
    @POST
    @Path("/secrets")
    public Uni<Response> secrets(@RestPath String tenantId, HttpServerRequest request, RoutingContext routing) {
        byte[] raw = ControlBodyGate.body(routing);
        return auth.authenticate(request, raw)
                .flatMap(ignored -> {
                    requireValidId(tenantId);
                    SecretChange change = SecretChange.parse(json, raw);
                    return change.add() != null
                            ? store.addSecret(tenantId, change.add())
                            : store.retireSecret(tenantId, change.retire());
                })
                .call(applied -> applied == null || applied.replay()
                        ? Uni.createFrom().voidItem()
                        : invalidation.changed(tenantId))
                .map(applied -> answerOrNotFound(tenantId, applied))
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    private Uni<Response> steer(String tenantId, HttpServerRequest request, RoutingContext routing,
            Supplier<Uni<CommandResult>> command) {
        byte[] raw = ControlBodyGate.body(routing);
        return auth.authenticate(request, raw)
                .flatMap(ignored -> {
                    requireValidId(tenantId);
                    requireEmptyObject(raw);
                    return command.get();
                })
                .call(applied -> applied == null || applied.replay()
                        ? Uni.createFrom().voidItem()
                        : invalidation.changed(tenantId))
                .map(applied -> answerOrNotFound(tenantId, applied))
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    private Response answerOrNotFound(String tenantId, CommandResult applied) {
        if (applied == null) {
            throw ProblemException.notFound("No tenant '" + tenantId + "'.");
        }
        return answer(applied);
    }

    /** The tenant's view plus {@code replay}. */
    private Response answer(CommandResult applied) {
        Map<String, Object> body = json.convertValue(applied.tenant(), AS_MAP);
        body.put("replay", applied.replay());
        return Response.ok(body).build();
    }

    private void requireEmptyObject(byte[] raw) {
        if (raw.length == 0) {
            return;
        }
        try {
            JsonNode root = json.readTree(raw);
            if (root != null && root.isObject() && root.isEmpty()) {
                return;
            }
        } catch (IOException e) {
            // refused below
        }
        throw ProblemException.badRequest("This command takes no fields: send an empty body or {}.");
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
                    return queue.backlog(tenantId).flatMap(backlog -> withHold(tenantId, backlog));
                })
                .map(backlog -> Response.ok(backlog).build())
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    /**
     * State {@code held} when events wait and the tenant's stored originUrl is one the trust rules refuse now: no
     * replica sends them (see the drainer) until it is allowed or changed. A paused tenant stays {@code paused}.
     */
    private Uni<Backlog> withHold(String tenantId, Backlog backlog) {
        if (backlog.depth() == 0 || backlog.paused()) {
            return Uni.createFrom().item(backlog);
        }
        return store.find(tenantId).map(view -> view == null || view.originUrl() == null
                || trust.originUrlRefusal(view.originUrl()) == null
                        ? backlog
                        : new Backlog(backlog.depth(), backlog.oldestAgeSeconds(), backlog.nextAttemptAt(), "held",
                                backlog.paused(), backlog.leaseHolder()));
    }

    static void requireValidId(String tenantId) {
        if (!Tenant.isValidId(tenantId)) {
            throw ProblemException.badRequest("Tenant ids are 1 to 64 characters of A-Z, a-z, 0-9, '_' and '-'.");
        }
    }
}
