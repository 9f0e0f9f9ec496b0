package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.function.Function;

import javax.crypto.Mac;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.verify.SignatureScheme.Algorithm;

/**
 * Twitch EventSub over webhooks: {@code Twitch-Eventsub-Message-Signature} is {@code sha256=} and the hex
 * HMAC-SHA256, keyed with the subscription's secret, of the message id, the timestamp (RFC 3339, as sent) and the
 * raw body, concatenated. The timestamp must be within {@link #DEFAULT_TOLERANCE} seconds of the receive time (Twitch
 * asks receivers to drop older messages against replays), checked before the MAC. The dedupe id is the message id,
 * which the signature covers. {@code webhook_callback_verification} (after it verified) is answered with the body's
 * {@code challenge} as plain text and not buffered; {@code notification} and {@code revocation} are buffered, so the
 * origin learns of a revoked subscription like of any event.
 */
public final class TwitchVerifier implements SignatureVerifier {

    public static final String ID_HEADER = "Twitch-Eventsub-Message-Id";
    public static final String TIMESTAMP_HEADER = "Twitch-Eventsub-Message-Timestamp";
    public static final String SIGNATURE_HEADER = "Twitch-Eventsub-Message-Signature";
    public static final String TYPE_HEADER = "Twitch-Eventsub-Message-Type";
    public static final String VERIFICATION = "webhook_callback_verification";
    /** Twitch's replay guard: ten minutes. */
    public static final int DEFAULT_TOLERANCE = 600;
    private static final String PREFIX = "sha256=";
    /** {@code 2019-11-16T10:11:12.634234626Z} is 30; an offset and nanoseconds stay well within this. */
    private static final int MAX_TIMESTAMP_LENGTH = 40;
    /** Twitch's message ids are UUIDs; a longer one is no id of theirs. */
    private static final int MAX_ID_LENGTH = 200;

    private final int toleranceSeconds;

    public TwitchVerifier(int toleranceSeconds) {
        if (toleranceSeconds < 1 || toleranceSeconds > SignatureScheme.MAX_TOLERANCE_SECONDS) {
            throw new IllegalArgumentException("the tolerance must be from 1 to "
                    + SignatureScheme.MAX_TOLERANCE_SECONDS + " seconds");
        }
        this.toleranceSeconds = toleranceSeconds;
    }

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        String header = SignatureText.first(headers, List.of(SIGNATURE_HEADER));
        if (header == null) {
            return VerificationFailure.MISSING_SIGNATURE;
        }
        byte[] provided = mac(header);
        String id = SignatureText.first(headers, List.of(ID_HEADER));
        String ts = SignatureText.first(headers, List.of(TIMESTAMP_HEADER));
        long millis = epochMillis(ts);
        if (provided == null || id == null || id.length() > MAX_ID_LENGTH || millis == Long.MIN_VALUE) {
            return VerificationFailure.MALFORMED_SIGNATURE;
        }
        if (Math.abs(receivedAtMillis - millis) > toleranceSeconds * 1000L) {
            return VerificationFailure.STALE_TIMESTAMP; // before the MAC: an old message costs no HMAC
        }
        if (secrets == null || secrets.isEmpty()) {
            return VerificationFailure.NO_SECRET;
        }
        return matches(secrets, id, ts, rawBody, provided) ? VerificationFailure.NONE : VerificationFailure.BAD_SIGNATURE;
    }

    /** Whether any secret signs {@code id + ts + body}; every secret is tried, with no early exit. */
    private static boolean matches(List<String> secrets, String id, String ts, byte[] body, byte[] provided) {
        boolean match = false;
        for (String secret : secrets) {
            Mac mac = Macs.init(Algorithm.SHA256, secret.getBytes(StandardCharsets.UTF_8));
            mac.update(id.getBytes(StandardCharsets.UTF_8));
            mac.update(ts.getBytes(StandardCharsets.UTF_8));
            mac.update(body);
            match |= MessageDigest.isEqual(mac.doFinal(), provided);
        }
        return match;
    }

    @Override
    public String dedupeId(Function<String, String> headers, byte[] rawBody) {
        return SignatureText.first(headers, List.of(ID_HEADER));
    }

    /** The message id is part of the signed content. */
    @Override
    public boolean signsDedupeId(Function<String, String> headers, byte[] rawBody) {
        return true;
    }

    @Override
    public HandshakeAnswer handshake(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        if (!VERIFICATION.equals(SignatureText.first(headers, List.of(TYPE_HEADER)))) {
            return null;
        }
        String challenge = JsonFields.text(rawBody, "challenge");
        return HandshakeAnswer.text(challenge == null ? "" : challenge);
    }

    /** The MAC of a {@code sha256=<hex>} header, or null when it is not one. */
    private static byte[] mac(String header) {
        byte[] mac = header.startsWith(PREFIX) ? Hex.decode(header.substring(PREFIX.length())) : null;
        return mac != null && mac.length == Algorithm.SHA256.macLength ? mac : null;
    }

    /** Epoch milliseconds of an RFC 3339 date-time, or {@code Long.MIN_VALUE} when it is not one. */
    static long epochMillis(String ts) {
        if (ts == null || ts.length() > MAX_TIMESTAMP_LENGTH) {
            return Long.MIN_VALUE;
        }
        try {
            return OffsetDateTime.parse(ts, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException | ArithmeticException e) {
            return Long.MIN_VALUE;
        }
    }
}
