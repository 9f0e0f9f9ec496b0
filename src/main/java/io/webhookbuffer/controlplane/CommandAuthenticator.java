package io.webhookbuffer.controlplane;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.controlplane.CommandSignature.Direction;
import io.webhookbuffer.controlplane.CommandSignature.SignedRequest;

/**
 * Authenticates a control command: shape and freshness, then the HMAC (v2, or the seed's v1 while
 * {@code buffer.control.accept-v1}), then the nonce. The nonce is claimed last,
 * so a forged command cannot burn a real nonce. Failure policy: fail closed. No secret configured refuses every
 * command; Redis unreachable refuses with 503 (a nonce that cannot be claimed cannot be trusted).
 *
 * <p>Where the MAC runs: a body of at most {@link #INLINE_MAC_BYTES} is MACed on the event loop (HMAC-SHA256 costs
 * about 1.2 µs per KiB here, measured 2026-12: 18.5 µs for 16 KiB, so at most about 37 µs with two secrets); a larger
 * one, up to {@link ControlBodyGate#MAX_BYTES} (343 µs per secret for 256 KiB), on a worker thread, and the command
 * goes on on its event loop once the signature is known.
 */
@ApplicationScoped
public class CommandAuthenticator {

    private static final Logger LOG = Logger.getLogger(CommandAuthenticator.class);
    /** 16 KiB: every command but a bulk dead-letter selection is smaller, and its MAC costs microseconds. */
    static final int INLINE_MAC_BYTES = 16 * 1024;
    /**
     * A command's x-timestamp may differ from this replica's clock by at most this much, either way: the seam's
     * contract (the seed's 300 s), which a control plane signs against; a clock further off than five minutes is a
     * clock to fix (NTP), not a tolerance to widen, and a wider one would keep replays open longer. A nonce is
     * remembered for twice this ({@link NonceGuard}), so it outlives every timestamp that could reuse it. Was
     * {@code buffer.control.timestamp-tolerance}.
     */
    static final Duration TIMESTAMP_TOLERANCE = Duration.ofSeconds(300);

    private final ControlConfig config;
    private final NonceGuard nonces;
    private final List<String> secrets;
    private final LogThrottle v1Warnings = new LogThrottle(60_000);
    private final BufferClock clock;

    public CommandAuthenticator(ControlConfig config, NonceGuard nonces, BufferClock clock) {
        this.config = config;
        this.clock = clock;
        this.nonces = nonces;
        List<String> s = new ArrayList<>(2);
        config.secret().filter(v -> !v.isBlank()).ifPresent(s::add);
        config.previousSecret().filter(v -> !v.isBlank()).ifPresent(s::add);
        this.secrets = List.copyOf(s);
        if (secrets.isEmpty()) {
            LOG.warn("buffer.control.secret is not set: every control command will be refused (not_configured)");
        }
    }

    /**
     * Completes when the command may run; fails with a 401/503 {@link ProblemException} when it may not. The v2
     * signature covers {@code request}'s method and its target as received (raw path, then {@code ?} and the raw
     * query when the request had one).
     */
    public Uni<Void> authenticate(HttpServerRequest request, byte[] body) {
        String nonce = request.getHeader("x-nonce");
        String signature = request.getHeader("x-signature");
        SignedRequest signed = new SignedRequest(request.method().name(), target(request),
                request.getHeader("x-timestamp"), nonce, signature, body);
        return check(signed).flatMap(refusal -> refusal == null
                ? claim(nonce, signature, signed.method(), request.path())
                : Uni.createFrom().failure(ProblemException.refused(refusal)));
    }

    /** The signature's verdict (null: authentic and fresh): on this thread for a small body, else on a worker. */
    private Uni<Refusal> check(SignedRequest signed) {
        long now = clock.realMillis() / 1000;
        Supplier<Refusal> verdict = () -> CommandSignature.check(secrets, Direction.COMMAND, signed, now,
                TIMESTAMP_TOLERANCE.toSeconds(), config.acceptV1());
        Context context = Vertx.currentContext();
        if (signed.body().length <= INLINE_MAC_BYTES || context == null || !Context.isOnEventLoopThread()) {
            return Uni.createFrom().item(verdict);
        }
        // The result comes back on this request's context: the nonce claim and the command run on its event loop.
        return Uni.createFrom().completionStage(
                () -> context.executeBlocking(verdict::get, false).toCompletionStage());
    }

    private Uni<Void> claim(String nonce, String signature, String method, String path) {
        return nonces.claim(nonce)
                .onFailure().transform(f -> {
                    LOG.warnf("nonce store unavailable, refusing command: %s", f.getMessage());
                    return ProblemException.unavailable("nonce_store_unavailable",
                            "The command could not be checked for replay; retry with a new nonce.");
                })
                .flatMap(claimed -> {
                    if (!claimed) {
                        return Uni.createFrom().failure(ProblemException.refused(Refusal.REPLAYED_NONCE));
                    }
                    if (CommandSignature.version(signature) == 1) {
                        warnV1(method, path);
                    }
                    return Uni.createFrom().voidItem();
                });
    }

    /** The request target as it arrived: Vert.x's raw path and raw query (never decoded), an absolute form's too. */
    static String target(HttpServerRequest request) {
        String query = request.query();
        return query == null ? request.path() : request.path() + "?" + query;
    }

    private void warnV1(String method, String path) {
        long heldBack = v1Warnings.due(clock.realMillis());
        if (heldBack >= 0) {
            LOG.warnf("accepted a command signed in the deprecated v1 format (%s %s; %d more v1 commands since the"
                    + " last warning): v1 binds neither the method nor the path, so a captured command can be replayed"
                    + " against another tenant or command. Sign with v2 (x-signature: v2=...; docs/control-plane.md)"
                    + " and set buffer.control.accept-v1=false. This warning appears at most once a minute.",
                    method, path, heldBack);
        }
    }
}
