package io.webhookbuffer.tenant;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.webhookbuffer.common.OriginConfig;
import io.webhookbuffer.common.OriginCredentials;
import io.webhookbuffer.egress.EgressAnswer;
import io.webhookbuffer.egress.EgressClient;
import io.webhookbuffer.egress.OriginTrust;
import io.webhookbuffer.verify.Providers;
import io.webhookbuffer.verify.SenderRetries;

/**
 * Optional pull-through (off by default, {@code buffer.tenants.origin-pull.enabled}): a tenant that PostgreSQL does
 * not know is asked of the origin at {@code GET {origin}/internal/tenants/{id}/webhook-config}, which answers
 * {@code {"active", "rateLimit", "secrets": [...]}} (optionally {@code provider}, {@code rateWindowSeconds},
 * {@code maxBodyBytes}, {@code senderRetries}). The answer is cached like any tenant; it is not written to PostgreSQL.
 * {@code senderRetries} is checked as the tenant command checks it: {@code "never"}, {@code "briefly"},
 * {@code "long"}, or null or absent for the provider's (docs/providers.md); any other value makes the config unusable.
 *
 * <p>Only an answer says the origin does not know an id (a 4xx, or a 200 without a usable config: null). An origin
 * that could not answer (no connection, a refused address, the timeout, a 3xx, a 5xx, a 429, an answer longer than
 * {@code OriginTrust.MAX_ANSWER_BYTES}, 64 KiB) fails the fetch instead, so that ingress asks the sender to retry (503)
 * rather than telling it the endpoint does not exist (404). Like batches, the question goes only to an address the
 * origin trust rules allow, follows no redirect (it carries the origin token) and reads a capped answer
 * ({@link EgressClient}). {@link TenantDirectory} bounds how many fetches run at once (the bulkhead,
 * {@code buffer.tenants.origin-pull.max-concurrent}).
 */
@ApplicationScoped
public class OriginTenantSource {

    private final Vertx vertx;
    private final OriginConfig origin;
    private final TenantConfig config;
    private final OriginTrust trust;
    private volatile EgressClient client;

    public OriginTenantSource(Vertx vertx, OriginConfig origin, TenantConfig config, OriginTrust trust) {
        this.vertx = vertx;
        this.origin = origin;
        this.config = config;
        this.trust = trust;
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
        MultiMap headers = MultiMap.caseInsensitiveMultiMap();
        origin.token().ifPresent(token -> headers.add("Authorization", "Bearer " + token));
        return client().send(HttpMethod.GET, url, headers, null, config.originPull().timeout().toMillis())
                .map(answer -> parse(tenantId, answer)).toCompletionStage();
    }

    static Tenant parse(String tenantId, EgressAnswer answer) {
        requireAnswered(answer);
        if (answer.status() != 200) {
            return null;
        }
        JsonObject json;
        try {
            json = answer.body().toJsonObject();
        } catch (RuntimeException e) {
            return null;
        }
        if (json == null || !(json.getValue("secrets") instanceof JsonArray array)) {
            return null;
        }
        List<String> secrets = secrets(array);
        String provider = json.getString("provider", Providers.GENERIC);
        Object retries = json.getValue("senderRetries");
        SenderRetries senderRetries = retries instanceof String label ? SenderRetries.of(label) : null;
        if (secrets.isEmpty() || Providers.verifier(provider) == null || retries != null && senderRetries == null) {
            // Failure policy: fail closed. A config without a usable secret, with an unknown scheme or with a
            // senderRetries the tenant command would refuse is no tenant.
            return null;
        }
        return new Tenant(tenantId, json.getBoolean("active", false), provider, secrets,
                json.getInteger("rateLimit", 100), json.getInteger("rateWindowSeconds", 10),
                json.getInteger("maxBodyBytes"), null, null, null, null, null, OriginCredentials.NONE, null, null,
                senderRetries);
    }

    private static List<String> secrets(JsonArray array) {
        List<String> secrets = new ArrayList<>();
        for (Object secret : array) {
            if (secret instanceof String s && !s.isBlank()) {
                secrets.add(s);
            }
        }
        return secrets;
    }

    /** A 5xx, 429 or 3xx, or an answer cut at the cap, is no answer about the tenant: the sender is asked to retry. */
    private static void requireAnswered(EgressAnswer answer) {
        int status = answer.status();
        boolean redirect = status >= 300 && status < 400;
        if (status >= 500 || status == 429 || redirect || answer.cut()) {
            throw new IllegalStateException("origin answered " + status + (answer.cut() ? " (longer than 64 KiB)" : "")
                    + " for a tenant config");
        }
    }

    private EgressClient client() {
        EgressClient c = client;
        if (c == null) {
            synchronized (this) {
                if (client == null) {
                    client = new EgressClient(vertx, new HttpClientOptions(), trust, trust.maxAnswerBytes());
                }
                c = client;
            }
        }
        return c;
    }
}
