package io.webhookbuffer.controlplane;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import org.jboss.resteasy.reactive.RestPath;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;
import io.webhookbuffer.verify.Providers;

/**
 * {@code POST /control/tenants/{tenantId}/handshake/{provider}}, body {@code {}} or {@code {"seconds": n}}: opens the
 * window in which the provider's secret handshake (Asana's {@code X-Hook-Secret}) may set the tenant's secret, for
 * {@value #DEFAULT_SECONDS} seconds by default and at most {@value #MAX_SECONDS}. Opening again replaces the window.
 * The window lives in PostgreSQL, so it holds on every replica; the first handshake in it stores the secret and closes
 * it. 404 for no tenant, 409 when the tenant's provider is another, 400 for a provider without a secret handshake.
 */
@Path("/control/tenants/{tenantId}/handshake/{provider}")
@Produces(MediaType.APPLICATION_JSON)
public class HandshakeWindowResource {

    static final int DEFAULT_SECONDS = 600;
    static final int MAX_SECONDS = 3600;

    private final CommandAuthenticator auth;
    private final HandshakeWindows windows;
    private final ObjectMapper json;

    public HandshakeWindowResource(CommandAuthenticator auth, HandshakeWindows windows, ObjectMapper json) {
        this.auth = auth;
        this.windows = windows;
        this.json = json;
    }

    @POST
    public Uni<Response> open(@RestPath String tenantId, @RestPath String provider, HttpServerRequest request,
            RoutingContext routing) {
        byte[] raw = ControlBodyGate.body(routing);
        return auth.authenticate(request, raw).flatMap(ignored -> {
            TenantCommandResource.requireValidId(tenantId);
            if (Providers.secretHandshake(provider) == null) {
                throw ProblemException.badRequest("'" + provider + "' has no secret handshake; only "
                        + Providers.ASANA + " does (its X-Hook-Secret).");
            }
            return windows.open(tenantId, provider, seconds(raw));
        }).map(opened -> {
            if (opened.provider() == null) {
                throw ProblemException.notFound("No tenant '" + tenantId + "'.");
            }
            if (opened.openedAt() == null) {
                throw ProblemException.conflict("Tenant '" + tenantId + "' has provider '" + opened.provider()
                        + "', not '" + provider + "': no window opened.");
            }
            Map<String, Object> answer = new LinkedHashMap<>();
            answer.put("tenantId", tenantId);
            answer.put("provider", provider);
            answer.put("openedAt", opened.openedAt().toString());
            answer.put("closesAt", opened.closesAt().toString());
            return Response.ok(answer).build();
        }).onFailure(ProblemMapper::isUnexpected).recoverWithItem(ProblemMapper::unexpected);
    }

    private int seconds(byte[] raw) {
        if (raw.length == 0) {
            return DEFAULT_SECONDS;
        }
        JsonNode seconds = secondsField(raw);
        if (seconds == null || seconds.isNull()) {
            return DEFAULT_SECONDS;
        }
        if (!seconds.isIntegralNumber() || !seconds.canConvertToInt() || seconds.intValue() < 1
                || seconds.intValue() > MAX_SECONDS) {
            throw ProblemException.badRequest("'seconds' must be an integer from 1 to " + MAX_SECONDS + ", was "
                    + seconds + ".");
        }
        return seconds.intValue();
    }

    /** The body's {@code seconds} node, or null when the body is {@code {}}. */
    private JsonNode secondsField(byte[] raw) {
        JsonNode root;
        try {
            root = json.readTree(raw);
        } catch (IOException e) {
            throw ProblemException.badRequest("The body is not valid JSON.");
        }
        if (root == null || !root.isObject() || root.size() > 1 || (root.size() == 1 && !root.has("seconds"))) {
            throw ProblemException.badRequest("The body must be {} or {\"seconds\": n}.");
        }
        return root.get("seconds");
    }
}
