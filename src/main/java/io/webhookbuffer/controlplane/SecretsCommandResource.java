package io.webhookbuffer.controlplane;

import java.io.IOException;
import java.util.Set;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.tenant.Tenant;

/**
 * Key rotation for secrets at rest, as signed commands: {@code GET /control/secrets} (which key ids the stored values
 * need, which configured keys nothing needs any more) and {@code POST /control/secrets/reencrypt} (one batch of the
 * pass that seals every value again under the active key; {@code bin/bufferctl secrets reencrypt} runs the whole pass).
 * Neither answer carries a secret.
 */
@Path("/control/secrets")
@Produces(MediaType.APPLICATION_JSON)
public class SecretsCommandResource {

    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1000;
    private static final Set<String> FIELDS = Set.of("after", "limit");

    private final CommandAuthenticator auth;
    private final SecretsRotation rotation;
    private final ObjectMapper json;

    public SecretsCommandResource(CommandAuthenticator auth, SecretsRotation rotation, ObjectMapper json) {
        this.auth = auth;
        this.rotation = rotation;
        this.json = json;
    }

    @GET
    public Uni<Response> status(HttpServerRequest request) {
        return auth.authenticate(request, new byte[0])
                .flatMap(ignored -> rotation.status())
                .map(status -> Response.ok(status).build())
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    /** Body {@code {"after": "<tenant id>", "limit": 100}}, both optional; the answer's {@code nextAfter} continues. */
    @POST
    @Path("/reencrypt")
    public Uni<Response> reencrypt(HttpServerRequest request, RoutingContext routing) {
        byte[] raw = ControlBodyGate.body(routing);
        return auth.authenticate(request, raw)
                .flatMap(ignored -> {
                    JsonNode root = parse(raw);
                    return rotation.reencrypt(after(root), limit(root));
                })
                .map(pass -> Response.ok(pass).build())
                .onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    private JsonNode parse(byte[] raw) {
        if (raw.length == 0) {
            return json.createObjectNode();
        }
        JsonNode root;
        try {
            root = json.readTree(raw);
        } catch (IOException e) {
            throw ProblemException.badRequest("The body is not valid JSON.");
        }
        if (root == null || !root.isObject()) {
            throw ProblemException.badRequest("The body must be a JSON object: {\"after\": \"<tenant id>\", \"limit\": n}.");
        }
        root.fieldNames().forEachRemaining(name -> {
            if (!FIELDS.contains(name)) {
                throw ProblemException.badRequest("Unknown field '" + name + "'; known fields are " + FIELDS + ".");
            }
        });
        return root;
    }

    private static String after(JsonNode root) {
        JsonNode node = root.get("after");
        if (node == null || node.isNull()) {
            return "";
        }
        if (!node.isTextual() || !Tenant.isValidId(node.textValue())) {
            throw ProblemException.badRequest("'after' must be a tenant id (the previous answer's nextAfter), or null.");
        }
        return node.textValue();
    }

    private static int limit(JsonNode root) {
        JsonNode node = root.get("limit");
        if (node == null || node.isNull()) {
            return DEFAULT_LIMIT;
        }
        if (!node.isIntegralNumber() || !node.canConvertToInt() || node.intValue() < 1 || node.intValue() > MAX_LIMIT) {
            throw ProblemException.badRequest("'limit' must be an integer from 1 to " + MAX_LIMIT + ", was " + node + ".");
        }
        return node.intValue();
    }
}
