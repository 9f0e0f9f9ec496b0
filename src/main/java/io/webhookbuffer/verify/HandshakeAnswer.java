package io.webhookbuffer.verify;

/**
 * What a provider expects back from its endpoint handshake: Slack's {@code challenge}, or Zoom's {@code plainToken}
 * with its {@code encryptedToken}. The unused fields are null.
 */
public record HandshakeAnswer(String challenge, String plainToken, String encryptedToken) {
}
