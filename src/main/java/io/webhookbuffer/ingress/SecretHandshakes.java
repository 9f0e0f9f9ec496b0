package io.webhookbuffer.ingress;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import jakarta.enterprise.context.ApplicationScoped;

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
 * <p>What an unauthenticated sender can make it cost: a malformed secret is a 400 without a query; each refused
 * handshake counts against the tenant like a bad signature, and at most {@link #ATTEMPTS_PER_WINDOW} handshakes per
 * tenant in {@link #WINDOW_SECONDS} reach the database on this replica (then 429 {@code handshake_rate}): one
 * indexed statement each. Never blocks.
 */
@ApplicationScoped
public class SecretHandshakes {

    /** Handshakes that may reach the database per tenant per replica and window: Asana sends one per webhook created. */
    static final int ATTEMPTS_PER_WINDOW = 10;
    static final int WINDOW_SECONDS = 60;

    private final SecretHandshakeStore store;
    private final VerificationBudget budget;
    /** Per tenant: the handshakes sent to the database in the window. */
    private final TenantPace attempts = new TenantPace(ATTEMPTS_PER_WINDOW, WINDOW_SECONDS);

    public SecretHandshakes(SecretHandshakeStore store, VerificationBudget budget) {
        this.store = store;
        this.budget = budget;
    }

    /** The decision about a handshake offering {@code secret} for the tenant. */
    CompletionStage<IngestService.Admission> offer(Tenant tenant, String secret) {
        if (!AsanaHandshake.wellFormed(secret)) {
            budget.failed(tenant.id());
            return done(new IngestService.HandshakeRefused(IngestService.HandshakeRefused.Why.MALFORMED, 0));
        }
        long limitedFor = attempts.take(tenant.id());
        if (limitedFor > 0) {
            return done(new IngestService.HandshakeRefused(IngestService.HandshakeRefused.Why.RATE, limitedFor));
        }
        return store.storeIfWindowOpen(tenant.id(), tenant.provider(), secret).thenApply(stored -> {
            if (stored) {
                return new IngestService.SecretStored(AsanaHandshake.SECRET_HEADER, secret);
            }
            budget.failed(tenant.id());
            return new IngestService.HandshakeRefused(IngestService.HandshakeRefused.Why.NO_WINDOW, 0);
        });
    }

    private static CompletionStage<IngestService.Admission> done(IngestService.Admission admission) {
        return CompletableFuture.completedFuture(admission);
    }
}
