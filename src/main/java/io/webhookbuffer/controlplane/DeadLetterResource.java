package io.webhookbuffer.controlplane;

import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.vertx.core.json.JsonObject;
import io.webhookbuffer.common.Utf8;
import io.webhookbuffer.queue.DeadLetterStore;
import io.webhookbuffer.queue.DeadLetterStore.Selection;
import io.webhookbuffer.queue.DrainScheduler;

/**
 * Dead letters of a tenant, as signed commands: {@code GET .../dead-letters} (paged), {@code POST
 * .../dead-letters/replay} and {@code DELETE .../dead-letters}. Replay and purge answer {@code "replay": true} when
 * nothing was selected any more (the same command sent again changes nothing). They take their selection in the signed
 * JSON body ({@code {"ids": [...]}} and/or {@code {"from", "to"}}; {@code {}} means all), never in the URL, which a v1
 * signature does not cover.
 */
@Path("/control/tenants/{tenantId}/dead-letters")
@Produces(MediaType.APPLICATION_JSON)
public class DeadLetterResource {

    private static final TypeReference<LinkedHashMap<String, Object>> AS_MAP = new TypeReference<>() {
    };
    static final int DEFAULT_PAGE = 50;
    static final int MAX_PAGE = 500;

    private final CommandAuthenticator auth;
    private final DeadLetterStore store;
    private final DrainScheduler drains;
    private final ObjectMapper json;

    public DeadLetterResource(CommandAuthenticator auth, DeadLetterStore store, DrainScheduler drains,
            ObjectMapper json) {
        this.auth = auth;
        this.store = store;
        this.drains = drains;
        this.json = json;
    }

    /** Oldest first; pass {@code after} = the previous page's {@code nextAfter} to continue. */
    @GET
    public Uni<Response> list(@RestPath String tenantId, @RestQuery Long after, @RestQuery String from,
            @RestQuery String to, @RestQuery Integer limit, HttpServerRequest request) {
        return auth.authenticate(request, new byte[0]).flatMap(ignored -> {
            TenantCommandResource.requireValidId(tenantId);
            int pageSize = limit == null ? DEFAULT_PAGE : limit;
            if (pageSize < 1 || pageSize > MAX_PAGE) {
                throw ProblemException.badRequest("'limit' must be from 1 to " + MAX_PAGE + ".");
            }
            return store.list(tenantId, after == null ? 0 : after, time("from", from), time("to", to), pageSize)
                    .map(page -> {
                        Long next = page.size() == pageSize ? page.get(page.size() - 1).id() : null;
                        Map<String, Object> body = new LinkedHashMap<>();
                        body.put("deadLetters", page);
                        body.put("nextAfter", next);
                        return Response.ok(body).build();
                    });
        }).onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    /**
     * One dead letter with its body: {@code rawBody} when the bytes are valid UTF-8, else {@code rawBodyBase64}, and
     * the headers kept for the origin.
     */
    @GET
    @Path("/{deadLetterId}")
    public Uni<Response> get(@RestPath String tenantId, @RestPath long deadLetterId, HttpServerRequest request) {
        return auth.authenticate(request, new byte[0]).flatMap(ignored -> {
            TenantCommandResource.requireValidId(tenantId);
            return store.get(tenantId, deadLetterId);
        }).map(found -> {
            if (found == null) {
                throw ProblemException.notFound("Tenant '" + tenantId + "' has no dead letter " + deadLetterId + ".");
            }
            Map<String, Object> body = json.convertValue(found.deadLetter(), AS_MAP);
            Utf8.putRawBody(body, found.body());
            body.put("headers", new JsonObject(found.headersJson()).getMap());
            return Response.ok(body).build();
        }).onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    @POST
    @Path("/replay")
    public Uni<Response> replay(@RestPath String tenantId, HttpServerRequest request, RoutingContext routing) {
        byte[] raw = ControlBodyGate.body(routing);
        return auth.authenticate(request, raw)
                .flatMap(ignored -> store.replay(selection(tenantId, raw)))
                .map(n -> {
                    if (n > 0) {
                        drains.wake(tenantId);
                    }
                    return Response.ok(Map.of("replayed", n, "more", n == DeadLetterStore.MAX_PER_COMMAND,
                            "replay", n == 0)).build();
                })
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    @DELETE
    public Uni<Response> purge(@RestPath String tenantId, HttpServerRequest request, RoutingContext routing) {
        byte[] raw = ControlBodyGate.body(routing);
        return auth.authenticate(request, raw)
                .flatMap(ignored -> store.purge(selection(tenantId, raw)))
                .map(n -> Response.ok(Map.of("purged", n, "more", n == DeadLetterStore.MAX_PER_COMMAND,
                        "replay", n == 0)).build())
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    private Selection selection(String tenantId, byte[] raw) {
        TenantCommandResource.requireValidId(tenantId);
        JsonNode root;
        try {
            root = raw.length == 0 ? json.createObjectNode() : json.readTree(raw);
        } catch (IOException e) {
            throw ProblemException.badRequest("The body is not valid JSON.");
        }
        if (root == null || !root.isObject()) {
            throw ProblemException.badRequest("The body must be a JSON object with optional ids, from and to.");
        }
        root.fieldNames().forEachRemaining(name -> {
            if (!List.of("ids", "from", "to").contains(name)) {
                throw ProblemException.badRequest("Unknown field '" + name + "'; known fields are ids, from, to.");
            }
        });
        List<Long> ids = new ArrayList<>();
        JsonNode idNode = root.get("ids");
        if (idNode != null) {
            if (!idNode.isArray() || idNode.size() > DeadLetterStore.MAX_PER_COMMAND) {
                throw ProblemException.badRequest("'ids' must be an array of at most "
                        + DeadLetterStore.MAX_PER_COMMAND + " dead-letter ids.");
            }
            for (JsonNode id : idNode) {
                if (!id.canConvertToLong() || !id.isIntegralNumber()) {
                    throw ProblemException.badRequest("'ids' must contain integers (dead-letter ids from the list).");
                }
                ids.add(id.longValue());
            }
        }
        return new Selection(tenantId, ids.toArray(Long[]::new), time("from", text(root, "from")),
                time("to", text(root, "to")));
    }

    private static String text(JsonNode root, String field) {
        JsonNode node = root.get(field);
        return node == null || node.isNull() ? null : node.asText();
    }

    private static OffsetDateTime time(String field, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return OffsetDateTime.parse(value);
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest("'" + field + "' must be an ISO-8601 time with offset, e.g. "
                    + "2026-11-30T00:00:00Z.");
        }
    }
}
