package io.webhookbuffer.common;

import java.util.Optional;

/**
 * What the buffer presents to an origin with a batch: the bearer token ({@code Authorization}) and the secret that
 * signs the batch ({@code X-Buffer-Signature}); either may be absent (then that header is not sent). The global pair
 * ({@code buffer.origin.token}, {@code buffer.delivery.signing-secret}) goes to the global origin only; a tenant with
 * an origin of its own has a pair of its own. {@link #toString()} names which are set, never their values.
 */
public record OriginCredentials(String token, String signingSecret) {

    public static final OriginCredentials NONE = new OriginCredentials(null, null);

    public OriginCredentials {
        token = blankToNull(token);
        signingSecret = blankToNull(signingSecret);
    }

    public static OriginCredentials of(Optional<String> token, Optional<String> signingSecret) {
        return new OriginCredentials(token.orElse(null), signingSecret.orElse(null));
    }

    public boolean isEmpty() {
        return token == null && signingSecret == null;
    }

    /** The token's fingerprint (first 12 hex digits of its SHA-256), or null. */
    public String tokenFingerprint() {
        return token == null ? null : Hmac.fingerprint(token);
    }

    public String signingSecretFingerprint() {
        return signingSecret == null ? null : Hmac.fingerprint(signingSecret);
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }

    @Override
    public String toString() {
        return "OriginCredentials[token=" + (token == null ? "none" : "<hidden>") + ", signingSecret="
                + (signingSecret == null ? "none" : "<hidden>") + "]";
    }
}
