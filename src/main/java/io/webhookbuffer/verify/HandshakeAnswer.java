package io.webhookbuffer.verify;

/**
 * What a provider expects back from its endpoint handshake: Slack's {@code challenge}, or Zoom's {@code plainToken}
 * with its {@code encryptedToken} (answered as JSON), or a bare text (Twitch's challenge, answered as
 * {@code text/plain}). The unused fields are null.
 */
public record HandshakeAnswer(String challenge, String plainToken, String encryptedToken, String text) {

    public HandshakeAnswer(String challenge, String plainToken, String encryptedToken) {
        this(challenge, plainToken, encryptedToken, null);
    }

    /** An answer that is the text itself, not a JSON object. */
    public static HandshakeAnswer text(String text) {
        return new HandshakeAnswer(null, null, null, text);
    }
}
