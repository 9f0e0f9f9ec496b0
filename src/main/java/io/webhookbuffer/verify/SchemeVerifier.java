package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import javax.crypto.Mac;

import io.webhookbuffer.verify.SignatureScheme.TimestampSource;

/**
 * Verifies a request against a {@link SignatureScheme}. The signed content is fed to the MAC part by part (no
 * concatenated copy of the body); each secret's MAC is computed once and compared in constant time with every
 * signature the header carries, for every secret, with no early exit. Everything that can be refused without a MAC is
 * refused first (a missing or malformed header, a wrong length or encoding, a signed timestamp outside the tolerance),
 * so such a request costs no HMAC over its body.
 */
public final class SchemeVerifier implements SignatureVerifier {

    private static final int BODY = 0;
    private static final int TS = 1;
    private static final int ID = 2;
    private static final int URL = 3;

    private final SignatureScheme scheme;
    private final SignatureHeader signatureHeader;
    private final byte[] url;
    /** The template: a byte[] literal, or an Integer naming a placeholder (BODY, TS, ID, URL). */
    private final Object[] parts;

    /**
     * @param publicUrl the URL the provider signs ({@code {url}}), exactly as configured there; null when the
     *        scheme does not sign one
     */
    public SchemeVerifier(SignatureScheme scheme, String publicUrl) {
        if (scheme.signsUrl() && (publicUrl == null || publicUrl.isEmpty())) {
            throw new IllegalArgumentException("this scheme signs the public URL; the tenant needs 'publicUrl'");
        }
        this.scheme = scheme;
        this.signatureHeader = new SignatureHeader(scheme);
        this.url = publicUrl == null ? null : publicUrl.getBytes(StandardCharsets.UTF_8);
        List<String> template = SignatureScheme.parts(scheme.signedContent());
        this.parts = new Object[template.size()];
        for (int i = 0; i < parts.length; i++) {
            int placeholder = SignatureScheme.PLACEHOLDERS.indexOf(template.get(i));
            parts[i] = placeholder >= 0 ? Integer.valueOf(placeholder) : SignatureScheme.literal(template.get(i));
        }
    }

    public SignatureScheme scheme() {
        return scheme;
    }

    /** A timestamp signed in the body is the time of this send: a retry carries another (Linear's webhookTimestamp). */
    @Override
    public List<String> volatileFields() {
        return scheme.timestamp() == TimestampSource.BODY ? List.of(scheme.timestampBodyField()) : List.of();
    }

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        Prepared prepared = prepare(headers, rawBody, secrets, receivedAtMillis);
        if (prepared.failure() != null) {
            return prepared.failure();
        }
        boolean match = false;
        for (String secret : secrets) {
            byte[] expected = mac(secret, rawBody, prepared.ts(), prepared.id());
            for (byte[] provided : prepared.signatures().values) {
                // No early exit: the time taken does not say which secret or which signature matched.
                match |= expected != null && MessageDigest.isEqual(expected, provided);
            }
        }
        return match ? VerificationFailure.NONE : VerificationFailure.BAD_SIGNATURE;
    }

    /**
     * Every scheme whose signed content holds the body once and whose timestamp is not read from the body can be
     * checked as the body arrives: the headers give everything else before the first byte.
     */
    @Override
    public BodyCheck bodyCheck(Function<String, String> headers, List<String> secrets, long receivedAtMillis) {
        if (scheme.timestamp() == TimestampSource.BODY || count(BODY) != 1) {
            return null;
        }
        Prepared prepared = prepare(headers, null, secrets, receivedAtMillis);
        if (prepared.failure() != null) {
            return BodyCheck.refused(prepared.failure());
        }
        int body = 0;
        while (!(parts[body] instanceof Integer p && p == BODY)) {
            body++;
        }
        List<byte[]> keys = new ArrayList<>(secrets.size());
        for (String secret : secrets) {
            keys.add(key(secret));
        }
        byte[][] before = new byte[body][];
        for (int j = 0; j < body; j++) {
            before[j] = part(parts[j], null, prepared.ts(), prepared.id());
        }
        byte[][] after = new byte[parts.length - body - 1][];
        for (int j = body + 1; j < parts.length; j++) {
            after[j - body - 1] = part(parts[j], null, prepared.ts(), prepared.id());
        }
        return new BodyCheck(scheme.algorithm(), keys, before, after, prepared.signatures().values);
    }

    /** The signed timestamp as sent; null when the scheme signs none. */
    private String timestampText(SignatureHeader.Signatures signatures, Function<String, String> headers, byte[] rawBody) {
        return switch (scheme.timestamp()) {
            case NONE -> null;
            case PARAM -> signatures.timestamp;
            case HEADER -> SignatureText.first(headers, scheme.timestampHeaders());
            case BODY -> JsonFields.text(rawBody, scheme.timestampBodyField());
        };
    }

    /** The signed timestamp in the scheme's unit; 0 when it signs none, -1 when it is malformed. */
    private long timestampValue(String ts) {
        if (scheme.timestamp() == TimestampSource.NONE) {
            return 0;
        }
        return scheme.timestampUnit() == SignatureScheme.TimestampUnit.ISO_8601 ? SignatureText.parseIsoSeconds(ts)
                : SignatureText.parseTimestamp(ts);
    }

    /** What the MAC needs beside the body, from the headers; or the failure found without a MAC. */
    private record Prepared(VerificationFailure failure, SignatureHeader.Signatures signatures, byte[] ts, byte[] id) {
        static Prepared failed(VerificationFailure failure) {
            return new Prepared(failure, null, null, null);
        }
    }

    /**
     * Everything that can be refused without a MAC, in the order the answers have always been given: a missing or
     * malformed header, a wrong length or encoding, a missing id, a signed timestamp outside the tolerance, no secret.
     * {@code rawBody} is read only for a timestamp the body carries.
     */
    private Prepared prepare(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        String header = SignatureText.first(headers, scheme.signatureHeaders());
        if (header == null) {
            return Prepared.failed(VerificationFailure.MISSING_SIGNATURE);
        }
        SignatureHeader.Signatures signatures = signatureHeader.parse(header);
        if (signatures == null) {
            return Prepared.failed(VerificationFailure.MALFORMED_SIGNATURE);
        }
        String ts = timestampText(signatures, headers, rawBody);
        long timestamp = timestampValue(ts);
        byte[] id = null;
        if (needs(ID)) {
            String value = SignatureText.first(headers, scheme.idHeaders());
            if (value == null) {
                return Prepared.failed(VerificationFailure.MALFORMED_SIGNATURE);
            }
            id = value.getBytes(StandardCharsets.UTF_8);
        }
        if (timestamp < 0) {
            return Prepared.failed(VerificationFailure.MALFORMED_SIGNATURE);
        }
        if (!fresh(timestamp, receivedAtMillis)) {
            // Before the MAC, so an old or invented timestamp costs no HMAC over the body. It tells the sender only
            // what it sent: the time is outside the tolerance; nothing about the signature or the secrets.
            return Prepared.failed(VerificationFailure.STALE_TIMESTAMP);
        }
        if (secrets == null || secrets.isEmpty()) {
            // Failure policy: fail closed. A tenant without a secret accepts nothing; there is no fallback secret.
            return Prepared.failed(VerificationFailure.NO_SECRET);
        }
        return new Prepared(null, signatures, ts == null ? null : ts.getBytes(StandardCharsets.US_ASCII), id);
    }

    @Override
    public String dedupeId(Function<String, String> headers, byte[] rawBody) {
        String id = SignatureText.first(headers, scheme.dedupeHeaders());
        if (id == null && scheme.dedupeBodyField() != null) {
            String field = JsonFields.text(rawBody, scheme.dedupeBodyField());
            id = field == null || field.isBlank() ? null : field.strip();
        }
        return id;
    }

    /**
     * An id from a header is covered when the signed content includes {@code {id}} and the header read for it is the
     * one the dedupe id came from (Standard Webhooks' {@code webhook-id}); an id from the body is covered when the
     * signed content includes the body. GitHub's {@code X-GitHub-Delivery} or Shopify's {@code X-Shopify-Webhook-Id}
     * are outside what they sign.
     */
    @Override
    public boolean signsDedupeId(Function<String, String> headers, byte[] rawBody) {
        String fromHeader = SignatureText.first(headers, scheme.dedupeHeaders());
        if (fromHeader != null) {
            return needs(ID) && fromHeader.equals(SignatureText.first(headers, scheme.idHeaders()));
        }
        return needs(BODY);
    }

    /** The MAC of the signed content under one secret, or null when the secret cannot be a key of this scheme. */
    byte[] mac(String secret, byte[] body, byte[] ts, byte[] id) {
        byte[] key = key(secret);
        if (key == null || key.length == 0) {
            return null;
        }
        Mac mac = Macs.init(scheme.algorithm(), key);
        for (Object part : parts) {
            mac.update(part(part, body, ts, id));
        }
        return mac.doFinal();
    }

    /** One part of the signed content: a literal, or what a placeholder stands for in this request. */
    private byte[] part(Object part, byte[] body, byte[] ts, byte[] id) {
        if (part instanceof byte[] literal) {
            return literal;
        }
        return switch ((Integer) part) {
            case BODY -> body;
            case TS -> ts;
            case ID -> id;
            default -> url;
        };
    }

    private byte[] key(String secret) {
        return switch (scheme.key()) {
            case UTF8 -> secret.getBytes(StandardCharsets.UTF_8);
            case WHSEC_BASE64 -> SignatureText.whsecKey(secret);
        };
    }

    private boolean needs(int placeholder) {
        return count(placeholder) > 0;
    }

    private int count(int placeholder) {
        int n = 0;
        for (Object part : parts) {
            if (part instanceof Integer p && p == placeholder) {
                n++;
            }
        }
        return n;
    }

    /** Within the tolerance of the receive time; true when the scheme signs no time. */
    private boolean fresh(long timestamp, long receivedAtMillis) {
        if (scheme.timestamp() == TimestampSource.NONE) {
            return true;
        }
        long millis = scheme.timestampUnit() == SignatureScheme.TimestampUnit.MILLISECONDS ? timestamp : timestamp * 1000;
        // Both directions: a timestamp from the future is as suspect as an old one.
        return Math.abs(receivedAtMillis - millis) <= scheme.toleranceSeconds() * 1000L;
    }
}
