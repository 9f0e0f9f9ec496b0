package io.webhookbuffer.ingress;

import java.time.Instant;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.verify.AsanaHandshake;

/**
 * A provider's secret handshake on the ingest path (Asana's {@code X-Hook-Secret}): an unsigned request that would set
 * the tenant's secret, so it is taken only inside a window the operator opened with a signed command, which lives in
 * PostgreSQL so every replica sees it ({@link SecretHandshakeStore}). The first secret that arrives in the window is
 * stored sealed and committed, and only then echoed (200 with {@code X-Hook-Secret}); outside a window, or once the
 * window is used, the answer is 403 {@code handshake_refused} / {@code no_handshake_window} and nothing is stored. The
 * secret is never logged (nor kept in the refusals: those hold header names only).
 *
 * <p>What an unauthenticated sender can make it cost, and why it can never use up the genuine handshake: a malformed
 * secret is a 400, and a handshake outside a window a 403, both decided from memory (the cached tenant carries its
 * window, reloaded on every replica when the command opens one), so they cost no query and spend no allowance: there
 * is none to spend. Inside a window at most one handshake per tenant reaches the database at a time on this replica (a
 * second meanwhile is 429 {@code handshake_rate} with {@code Retry-After: 1}); the first to commit closes the window
 * (the unsigned handshake's own limit: docs/providers.md). Refusals cost nothing and are not counted. Never blocks.
 */
@ApplicationScoped
public class SecretHandshakes {

    private final SecretHandshakeStore store;
    /** Tenants with a handshake at the database now, on this replica. */
    private final Set<String> inFlight = ConcurrentHashMap.newKeySet();

    private final BufferClock clock;

    public SecretHandshakes(SecretHandshakeStore store, BufferClock clock) {
        this.store = store;
        this.clock = clock;
    }

    /** The answer to a handshake offering {@code secret} for the tenant. */
    CompletionStage<IngestAnswer> offer(Tenant tenant, String secret) {
        if (!AsanaHandshake.wellFormed(secret)) {
            return done(IngestAnswer.malformedHandshake());
        }
        if (!tenant.handshakeWindowOpen(Instant.ofEpochMilli(clock.millis()))) {
            return done(IngestAnswer.noHandshakeWindow());
        }
        if (!inFlight.add(tenant.id())) {
            return done(IngestAnswer.handshakeRate(1));
        }
        return store.storeIfWindowOpen(tenant.id(), tenant.provider(), secret)
                .whenComplete((stored, failure) -> inFlight.remove(tenant.id()))
                .thenApply(stored -> stored ? IngestAnswer.secretStored(AsanaHandshake.SECRET_HEADER, secret)
                        : IngestAnswer.noHandshakeWindow());
    }

    private static CompletionStage<IngestAnswer> done(IngestAnswer answer) {
        return CompletableFuture.completedFuture(answer);
    }
}
