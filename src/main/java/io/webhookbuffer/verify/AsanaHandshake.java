package io.webhookbuffer.verify;

import java.util.List;
import java.util.function.Function;

/**
 * Asana's webhook handshake: when a webhook is created, Asana POSTs once to its target with {@code X-Hook-Secret} (and
 * no event), and the webhook exists only if the answer is 200 or 204 echoing that header; Asana then signs every event
 * with that secret ({@code X-Hook-Signature}: hex HMAC-SHA256 of the raw body). The request itself is not signed, so
 * the ingest path takes it only inside a window the operator opened with a signed command (docs/providers.md,
 * "Asana"); this class only says whether a request is such a handshake and whether its secret is one Asana could send.
 */
public final class AsanaHandshake {

    public static final String SECRET_HEADER = "X-Hook-Secret";
    public static final String SIGNATURE_HEADER = "X-Hook-Signature";
    /**
     * Asana's documentation shows 64 hex digits, and receivers report other shapes too (60 characters with {@code $},
     * {@code .} and {@code /}): any visible ASCII within these bounds. Shorter would be a weak key, longer no secret of
     * theirs.
     */
    public static final int MIN_SECRET_LENGTH = 16;
    public static final int MAX_SECRET_LENGTH = 256;

    static final AsanaHandshake INSTANCE = new AsanaHandshake();

    private AsanaHandshake() {
    }

    /** The secret the request offers, or null when it is no handshake (no {@code X-Hook-Secret}): an event then. */
    public String offered(Function<String, String> headers) {
        return SignatureText.first(headers, List.of(SECRET_HEADER));
    }

    /**
     * Whether an offered secret can be stored: {@value #MIN_SECRET_LENGTH} to {@value #MAX_SECRET_LENGTH} visible ASCII
     * characters (no space, no control character), so it is a usable HMAC key and a header we can echo as received.
     */
    public static boolean wellFormed(String secret) {
        if (secret == null || secret.length() < MIN_SECRET_LENGTH || secret.length() > MAX_SECRET_LENGTH) {
            return false;
        }
        for (int i = 0; i < secret.length(); i++) {
            char c = secret.charAt(i);
            if (c < 0x21 || c > 0x7e) {
                return false;
            }
        }
        return true;
    }
}
