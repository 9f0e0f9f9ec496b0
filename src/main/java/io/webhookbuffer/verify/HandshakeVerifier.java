package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Function;

import io.webhookbuffer.common.Hmac;

/**
 * A scheme whose provider checks the endpoint with a signed handshake before sending events. The handshake request
 * is verified like any event first; only then is it answered, and it is never buffered.
 * <ul>
 * <li>Slack: a body with {@code "type": "url_verification"} is answered with its {@code challenge}.</li>
 * <li>Zoom: a body with {@code "event": "endpoint.url_validation"} is answered with its {@code payload.plainToken}
 * and {@code encryptedToken}, the hex HMAC-SHA256 of the plain token keyed with the secret token (the tenant secret
 * that verified the request).</li>
 * <li>Discord: a PING interaction ({@code "type": 1}, and no {@code event} field, which only Discord's separate
 * Webhook Events carry) is answered with the PONG {@code {"type": 1}}. It computes nothing.</li>
 * <li>Xero and Asana ({@link Kind#EMPTY_EVENTS}): a body whose {@code events} is an empty array is answered 200 with
 * an empty body and not stored: Xero's intent-to-receive requests (with {@code entropy} and the sequence numbers, each
 * one different) and Asana's heartbeats carry no event for the origin, so storing them would only queue empty
 * deliveries.</li>
 * </ul>
 */
public final class HandshakeVerifier extends WrappingVerifier {

    /** Which handshake the provider performs. */
    public enum Kind { SLACK, ZOOM, DISCORD, EMPTY_EVENTS }

    private final Kind kind;

    public HandshakeVerifier(SignatureVerifier scheme, Kind kind) {
        super(scheme);
        this.kind = kind;
    }

    @Override
    public HandshakeAnswer handshake(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        return switch (kind) {
            case SLACK -> "url_verification".equals(JsonFields.text(rawBody, "type"))
                    ? slack(JsonFields.text(rawBody, "challenge"))
                    : null;
            case ZOOM -> "endpoint.url_validation".equals(JsonFields.text(rawBody, "event"))
                    ? zoom(JsonFields.text(rawBody, "payload", "plainToken"), headers, rawBody, secrets, receivedAtMillis)
                    : null;
            case DISCORD -> "1".equals(JsonFields.text(rawBody, "type")) && !JsonFields.has(rawBody, "event")
                    ? HandshakeAnswer.discordPong()
                    : null;
            case EMPTY_EVENTS -> JsonFields.isEmptyArray(rawBody, "events") ? HandshakeAnswer.text("") : null;
        };
    }

    private static HandshakeAnswer slack(String challenge) {
        return new HandshakeAnswer(challenge == null ? "" : challenge, null, null);
    }

    private HandshakeAnswer zoom(String plainToken, Function<String, String> headers, byte[] rawBody,
            List<String> secrets, long receivedAtMillis) {
        String token = plainToken == null ? "" : plainToken;
        // Rare (once per endpoint change), so each secret is simply tried again to find the one that signed.
        for (String secret : secrets) {
            if (scheme.verify(headers, rawBody, List.of(secret), receivedAtMillis) == VerificationFailure.NONE) {
                return new HandshakeAnswer(null, token,
                        HexFormat.of().formatHex(Hmac.hmacSha256(secret, token.getBytes(StandardCharsets.UTF_8))));
            }
        }
        return null;
    }
}
