package io.webhookbuffer.controlplane;

import java.net.URI;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.mutiny.core.Vertx;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.controlplane.CommandSignature.Direction;
import io.webhookbuffer.egress.EgressClient;

/**
 * Signed POSTs up to the control plane ({@code buffer.control.url}): the same headers as commands down
 * ({@code x-timestamp}, {@code x-nonce}, {@code x-signature}) with {@code buffer.control.secret}, in the format
 * {@code buffer.control.push-signature-version} names: 1, the seed's "{timestamp}.{nonce}.{rawBody}"; or 2, whose
 * {@code x-signature} says {@code v2=} and whose message binds the direction {@code push}, {@code POST} and the
 * path as sent (the URL's path prefix included), so a push never verifies as a command.
 *
 * <p>A v1 push has the command format and key, so it would verify as a v1 command while {@code buffer.control.accept-v1}
 * holds. Before sending one, the buffer claims its nonce in the command nonce store ({@link NonceGuard}: the same Redis
 * keys and time to live), so the push replayed to {@code /control} is refused as
 * {@code replayed_nonce} by every replica sharing that Redis. Failure policy: a v1 push whose nonce cannot be claimed
 * (Redis unreachable) is held, not sent: the call fails as if the control plane had not answered, and the lifecycle
 * outbox and the usage reporter keep what they hold and send it again next run. Never downgraded to v2 (a control
 * plane told to expect v1 would refuse it) and never sent unclaimed (that would reopen the replay).
 *
 * <p>Through {@link EgressClient}: a redirect is never followed (a 303 would replay the signed push as a GET to
 * wherever it points, a 307 the whole POST) and counts as an answer that is not 2xx; only the status is used, and at
 * most {@link #MAX_ANSWER_BYTES} of the body are read. The origin address checks do not apply: the URL is set only by
 * the operator, next to the secret that signs the pushes, and control planes usually run at private addresses beside
 * the buffer.
 */
@ApplicationScoped
public class ControlPlaneClient {

    /** The pushes read nothing of an answer but its status. */
    static final int MAX_ANSWER_BYTES = 4096;

    private static final Logger LOG = Logger.getLogger(ControlPlaneClient.class);
    /**
     * How long a push may take before it counts as failed. Pushes are background jobs that retry on their next run
     * (the outbox and the usage rows stay until taken), so the bound only keeps a stalled control plane from holding
     * connections; no operator needs another value.
     */
    static final long REQUEST_TIMEOUT_MILLIS = 10_000;

    private final ControlConfig config;
    private final NonceGuard nonces;
    private final EgressClient client;
    private final BufferClock clock;

    public ControlPlaneClient(ControlConfig config, NonceGuard nonces, Vertx vertx, BufferClock clock) {
        this.config = config;
        this.clock = clock;
        this.nonces = nonces;
        this.client = new EgressClient(vertx.getDelegate(), new HttpClientOptions().setKeepAlive(true), null,
                MAX_ANSWER_BYTES);
    }

    /** True when a URL and a secret are configured; otherwise nothing is pushed. */
    public boolean configured() {
        return config.url().filter(u -> !u.isBlank()).isPresent()
                && config.secret().filter(s -> !s.isBlank()).isPresent();
    }

    /**
     * Completes with the HTTP status, or fails on no answer (connection refused, timeout) or, for a v1 push, when its
     * nonce cannot be claimed.
     */
    public Uni<Integer> post(String path, byte[] body) {
        if (!configured()) {
            return Uni.createFrom().failure(new IllegalStateException(
                    "buffer.control.url or buffer.control.secret is not set"));
        }
        String nonce = CommandSignature.newNonce();
        if (config.pushSignatureVersion() == 2) {
            return send(path, nonce, body); // v2 binds the direction: no command can be made of it
        }
        return nonces.claim(nonce)
                .onFailure().transform(f -> new IllegalStateException(
                        "v1 push held: its nonce could not be claimed in the nonce store (" + f.getMessage() + ")", f))
                .flatMap(claimed -> claimed
                        ? send(path, nonce, body)
                        : Uni.createFrom().failure(new IllegalStateException("v1 push held: its nonce was taken")));
    }

    private Uni<Integer> send(String path, String nonce, byte[] body) {
        String url = config.url().get().replaceAll("/+$", "") + path;
        String timestamp = Long.toString(clock.realMillis() / 1000);
        String signature = config.pushSignatureVersion() == 2
                ? CommandSignature.signV2(config.secret().get(), Direction.PUSH, "POST",
                        CommandSignature.target(URI.create(url)), timestamp, nonce, body)
                : CommandSignature.signV1(config.secret().get(), timestamp, nonce, body);
        MultiMap headers = MultiMap.caseInsensitiveMultiMap()
                .add("content-type", "application/json")
                .add("x-timestamp", timestamp)
                .add("x-nonce", nonce)
                .add("x-signature", signature);
        return Uni.createFrom().completionStage(() -> client.send(HttpMethod.POST, url, headers, Buffer.buffer(body),
                REQUEST_TIMEOUT_MILLIS).toCompletionStage())
                .map(answer -> {
                    if (answer.status() / 100 != 2) {
                        LOG.debugf("control plane answered %d to POST %s", answer.status(), path);
                    }
                    return answer.status();
                });
    }
}
