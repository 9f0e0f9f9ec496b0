package io.webhookbuffer.verify;

/**
 * What a provider expects back from its endpoint handshake: Slack's {@code challenge}, Zoom's {@code plainToken}
 * with its {@code encryptedToken}, or Discord's PONG ({@code type} 1), answered as JSON; or a bare text (Twitch's
 * challenge, answered as {@code text/plain}). The unused fields are null.
 */
public record HandshakeAnswer(String challenge, String plainToken, String encryptedToken, Integer type, String text) {

    public HandshakeAnswer(String challenge, String plainToken, String encryptedToken) {
        this(challenge, plainToken, encryptedToken, null, null);
    }

    /** Discord's answer to a verified PING interaction: {@code {"type": 1}} (PONG). */
    static HandshakeAnswer discordPong() {
        return new HandshakeAnswer(null, null, null, 1, null);
    }

    /** An answer that is the text itself, not a JSON object. */
    public static HandshakeAnswer text(String text) {
        return new HandshakeAnswer(null, null, null, null, text);
    }
}
