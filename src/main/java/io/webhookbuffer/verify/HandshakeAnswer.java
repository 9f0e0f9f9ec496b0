package io.webhookbuffer.verify;

/**
 * What a provider expects back from its endpoint handshake: Slack's {@code challenge}, Zoom's {@code plainToken}
 * with its {@code encryptedToken}, or Discord's PONG ({@code type} 1). The unused fields are null.
 */
public record HandshakeAnswer(String challenge, String plainToken, String encryptedToken, Integer type) {

    public HandshakeAnswer(String challenge, String plainToken, String encryptedToken) {
        this(challenge, plainToken, encryptedToken, null);
    }

    /** Discord's answer to a verified PING interaction: {@code {"type": 1}} (PONG). */
    static HandshakeAnswer discordPong() {
        return new HandshakeAnswer(null, null, null, 1);
    }
}
