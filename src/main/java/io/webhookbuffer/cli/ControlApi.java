package io.webhookbuffer.cli;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.webhookbuffer.controlplane.CommandSignature;
import io.webhookbuffer.controlplane.CommandSignature.Direction;

/** Sends one signed command to the buffer's control API and returns its answer. */
final class ControlApi {

    /** The buffer's answer. */
    record Answer(int status, String body) {
    }

    private final String baseUrl;
    private final String secret;
    private final HttpClient http;

    ControlApi(String baseUrl, String secret, Duration timeout) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.secret = secret;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /**
     * Signs in v2 (method, the path and query exactly as the URI sends them, timestamp, nonce, body) with a fresh
     * nonce (a retry is a new command, never a replay).
     */
    Answer send(String method, String path, String body) throws IOException, InterruptedException {
        byte[] raw = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        String timestamp = Long.toString(System.currentTimeMillis() / 1000);
        String nonce = CommandSignature.newNonce();
        URI uri = URI.create(baseUrl + path);
        String signature = CommandSignature.signV2(secret, Direction.COMMAND, method, CommandSignature.target(uri),
                timestamp, nonce, raw);
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(Duration.ofSeconds(30))
                .header("content-type", "application/json")
                .header("x-timestamp", timestamp)
                .header("x-nonce", nonce)
                .header("x-signature", signature)
                .method(method, raw.length == 0 ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofByteArray(raw))
                .build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        return new Answer(response.statusCode(), response.body());
    }
}
