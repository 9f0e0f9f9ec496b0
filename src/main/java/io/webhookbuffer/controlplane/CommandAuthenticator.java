package io.webhookbuffer.controlplane;

import java.util.ArrayList;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;

/**
 * Authenticates a control command: shape and freshness, then the HMAC, then the nonce. The nonce is claimed last,
 * so a forged command cannot burn a real nonce. Failure policy: fail closed. No secret configured refuses every
 * command; Redis unreachable refuses with 503 (a nonce that cannot be claimed cannot be trusted).
 */
@ApplicationScoped
public class CommandAuthenticator {

    private static final Logger LOG = Logger.getLogger(CommandAuthenticator.class);

    private final ControlConfig config;
    private final NonceGuard nonces;
    private final List<String> secrets;

    public CommandAuthenticator(ControlConfig config, NonceGuard nonces) {
        this.config = config;
        this.nonces = nonces;
        List<String> s = new ArrayList<>(2);
        config.secret().filter(v -> !v.isBlank()).ifPresent(s::add);
        config.previousSecret().filter(v -> !v.isBlank()).ifPresent(s::add);
        this.secrets = List.copyOf(s);
        if (secrets.isEmpty()) {
            LOG.warn("buffer.control.secret is not set: every control command will be refused (not_configured)");
        }
    }

    /** Completes when the command may run; fails with a 401/503 {@link ProblemException} when it may not. */
    public Uni<Void> authenticate(HttpServerRequest request, byte[] body) {
        String nonce = request.getHeader("x-nonce");
        Refusal refusal = CommandSignature.check(secrets, request.getHeader("x-timestamp"), nonce,
                request.getHeader("x-signature"), body, System.currentTimeMillis() / 1000,
                config.timestampTolerance().toSeconds());
        if (refusal != null) {
            return Uni.createFrom().failure(ProblemException.refused(refusal));
        }
        return nonces.claim(nonce)
                .onFailure().transform(f -> {
                    LOG.warnf("nonce store unavailable, refusing command: %s", f.getMessage());
                    return ProblemException.unavailable("nonce_store_unavailable",
                            "The command could not be checked for replay; retry with a new nonce.");
                })
                .flatMap(claimed -> claimed
                        ? Uni.createFrom().voidItem()
                        : Uni.createFrom().failure(ProblemException.refused(Refusal.REPLAYED_NONCE)));
    }
}
