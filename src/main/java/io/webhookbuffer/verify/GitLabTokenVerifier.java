package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.function.Function;

import io.webhookbuffer.common.Hmac;

/**
 * GitLab's classic token: {@code X-Gitlab-Token} equals the secret. Nothing is signed, so both sides are hashed with
 * SHA-256 and the hashes compared in constant time: neither the content nor the length of a secret leaks through
 * timing. The dedupe id is {@code Idempotency-Key}, else {@code X-Gitlab-Event-UUID}. (GitLab's newer signing is
 * Standard Webhooks: use that provider.)
 */
public final class GitLabTokenVerifier implements SignatureVerifier {

    public static final String TOKEN_HEADER = "X-Gitlab-Token";
    private static final List<String> DEDUPE_HEADERS = List.of("Idempotency-Key", "X-Gitlab-Event-UUID");

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        String token = headers.apply(TOKEN_HEADER);
        if (token == null || token.isEmpty()) {
            return VerificationFailure.MISSING_SIGNATURE;
        }
        if (secrets == null || secrets.isEmpty()) {
            return VerificationFailure.NO_SECRET;
        }
        byte[] provided = Hmac.sha256(token.getBytes(StandardCharsets.UTF_8));
        boolean match = false;
        for (String secret : secrets) {
            match |= MessageDigest.isEqual(provided, Hmac.sha256(secret.getBytes(StandardCharsets.UTF_8)));
        }
        return match ? VerificationFailure.NONE : VerificationFailure.BAD_SIGNATURE;
    }

    @Override
    public String dedupeId(Function<String, String> headers, byte[] rawBody) {
        return SignatureText.first(headers, DEDUPE_HEADERS);
    }
}
