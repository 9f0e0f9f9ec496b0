package io.webhookbuffer.controlplane;

import java.net.URI;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.mutiny.core.Vertx;
import io.vertx.mutiny.core.buffer.Buffer;
import io.vertx.mutiny.ext.web.client.WebClient;
import io.webhookbuffer.controlplane.CommandSignature.Direction;

/**
 * Signed POSTs up to the control plane ({@code buffer.control.url}): the same headers as commands down
 * ({@code x-timestamp}, {@code x-nonce}, {@code x-signature}) with {@code buffer.control.secret}, in the format
 * {@code buffer.control.push-signature-version} names: 1, the seed's "{timestamp}.{nonce}.{rawBody}"; or 2, whose
 * {@code x-signature} says {@code v2=} and whose message binds the direction {@code push}, {@code POST} and the
 * path as sent (the URL's path prefix included), so a push can never be replayed to the buffer as a command.
 */
@ApplicationScoped
public class ControlPlaneClient {

    private static final Logger LOG = Logger.getLogger(ControlPlaneClient.class);

    private final ControlConfig config;
    private final WebClient client;

    public ControlPlaneClient(ControlConfig config, Vertx vertx) {
        this.config = config;
        this.client = WebClient.create(vertx, new WebClientOptions()
                .setConnectTimeout((int) config.requestTimeout().toMillis()).setKeepAlive(true));
    }

    /** True when a URL and a secret are configured; otherwise nothing is pushed. */
    public boolean configured() {
        return config.url().filter(u -> !u.isBlank()).isPresent()
                && config.secret().filter(s -> !s.isBlank()).isPresent();
    }

    /** Completes with the HTTP status, or fails on no answer (connection refused, timeout). */
    public Uni<Integer> post(String path, byte[] body) {
        if (!configured()) {
            return Uni.createFrom().failure(new IllegalStateException(
                    "buffer.control.url or buffer.control.secret is not set"));
        }
        String url = config.url().get().replaceAll("/+$", "") + path;
        String timestamp = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = CommandSignature.newNonce();
        String signature = config.pushSignatureVersion() == 2
                ? CommandSignature.signV2(config.secret().get(), Direction.PUSH, "POST",
                        CommandSignature.target(URI.create(url)), timestamp, nonce, body)
                : CommandSignature.signV1(config.secret().get(), timestamp, nonce, body);
        return client.requestAbs(HttpMethod.POST, url)
                .timeout(config.requestTimeout().toMillis())
                .putHeader("content-type", "application/json")
                .putHeader("x-timestamp", timestamp)
                .putHeader("x-nonce", nonce)
                .putHeader("x-signature", signature)
                .sendBuffer(Buffer.buffer(body))
                .map(response -> {
                    if (response.statusCode() / 100 != 2) {
                        LOG.debugf("control plane answered %d to POST %s", response.statusCode(), path);
                    }
                    return response.statusCode();
                });
    }
}
