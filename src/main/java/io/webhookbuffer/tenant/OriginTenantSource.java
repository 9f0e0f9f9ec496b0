package io.webhookbuffer.tenant;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.core.buffer.Buffer;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.verify.Providers;

/**
 * Optional pull-through (off by default, {@code buffer.tenants.origin-pull.enabled}): a tenant that PostgreSQL does
 * not know is asked of the origin at {@code GET {origin}/internal/tenants/{id}/webhook-config}, which answers
 * {@code {"active", "rateLimit", "secrets": [...]}} (optionally {@code provider}, {@code rateWindowSeconds},
 * {@code maxBodyBytes}). The answer is cached like any tenant; it is not written to PostgreSQL.
 *
 * <p>Only an answer says the origin does not know an id (a 4xx, or a 200 without a usable config: null). An origin
 * that could not answer (no connection, the timeout, a 5xx, a 429) fails the fetch instead, so that ingress asks the
 * sender to retry (503) rather than telling it the endpoint does not exist (404). {@link TenantDirectory} bounds how
 * many fetches run at once (the bulkhead, {@code buffer.tenants.origin-pull.max-concurrent}).
 */
@ApplicationScoped
public class OriginTenantSource {

    private final Vertx vertx;
    private final OriginConfig origin;
    private final TenantConfig config;
    private volatile WebClient client;

    public OriginTenantSource(Vertx vertx, OriginConfig origin, TenantConfig config) {
        this.vertx = vertx;
        this.origin = origin;
        this.config = config;
    }

    /**
     * Completes with the tenant, or null when the origin does not know it or its answer is unusable; fails when the
     * origin could not answer.
     */
    public CompletionStage<Tenant> fetch(String tenantId) {
        if (origin.baseUrl().isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        String url = origin.baseUrl().get().replaceAll("/+$", "") + "/internal/tenants/" + tenantId + "/webhook-config";
        var request = client().getAbs(url).timeout(config.originPull().timeout().toMillis());
        origin.token().ifPresent(token -> request.bearerTokenAuthentication(token));
        return request.send().map(response -> parse(tenantId, response)).toCompletionStage();
    }

    static Tenant parse(String tenantId, HttpResponse<Buffer> response) {
        if (response.statusCode() >= 500 || response.statusCode() == 429) {
            throw new IllegalStateException("origin answered " + response.statusCode() + " for a tenant config");
        }
        if (response.statusCode() != 200) {
            return null;
        }
        JsonObject json;
        try {
            json = response.bodyAsJsonObject();
        } catch (RuntimeException e) {
            return null;
        }
        if (json == null || !(json.getValue("secrets") instanceof JsonArray array)) {
            return null;
        }
        List<String> secrets = new ArrayList<>();
        for (Object secret : array) {
            if (secret instanceof String s && !s.isBlank()) {
                secrets.add(s);
            }
        }
        String provider = json.getString("provider", Providers.GENERIC);
        if (secrets.isEmpty() || Providers.verifier(provider) == null) {
            // Failure policy: fail closed. A config without a usable secret or with an unknown scheme is no tenant.
            return null;
        }
        return new Tenant(tenantId, json.getBoolean("active", false), provider, secrets,
                json.getInteger("rateLimit", 100), json.getInteger("rateWindowSeconds", 10),
                json.getInteger("maxBodyBytes"), null, null, null, null, null);
    }

    private WebClient client() {
        WebClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = WebClient.create(vertx);
                }
                c = client;
            }
        }
        return c;
    }
}
