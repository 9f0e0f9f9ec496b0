package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

import javax.crypto.Mac;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.verify.SignatureScheme.Layout;
import io.webhookbuffer.verify.SignatureScheme.TimestampSource;

/**
 * Verifies a request against a {@link SignatureScheme}. The signed content is fed to the MAC part by part (no
 * concatenated copy of the body); each secret's MAC is computed once and compared in constant time with every
 * signature the header carries, for every secret, with no early exit. Everything that can be refused without a MAC is
 * refused first (a missing or malformed header, a wrong length or encoding, a signed timestamp outside the tolerance),
 * so such a request costs no HMAC over its body.
 */
public final class SchemeVerifier implements SignatureVerifier {

    /** More signatures than this in one header is not a rotation, it is an attack on the verifier's time. */
    static final int MAX_SIGNATURES = 16;
    /** Epoch milliseconds fit in 13 digits until the year 2286; longer numbers are refused before parsing. */
    private static final int MAX_TIMESTAMP_DIGITS = 15;
    /** The shape of an {@link SignatureScheme.TimestampUnit#ISO_8601} timestamp: {@code d} is an ASCII digit. */
    private static final String ISO_PATTERN = "dddd-dd-ddTdd:dd:ddZ";
    private static final int BODY = 0;
    private static final int TS = 1;
    private static final int ID = 2;
    private static final int URL = 3;

    private final SignatureScheme scheme;
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
    private String timestampText(Signatures signatures, Function<String, String> headers, byte[] rawBody) {
        return switch (scheme.timestamp()) {
            case NONE -> null;
            case PARAM -> signatures.timestamp;
            case HEADER -> first(headers, scheme.timestampHeaders());
            case BODY -> JsonFields.text(rawBody, scheme.timestampBodyField());
        };
    }

    /** The signed timestamp in the scheme's unit; 0 when it signs none, -1 when it is malformed. */
    private long timestampValue(String ts) {
        if (scheme.timestamp() == TimestampSource.NONE) {
            return 0;
        }
        return scheme.timestampUnit() == SignatureScheme.TimestampUnit.ISO_8601 ? parseIsoSeconds(ts)
                : parseTimestamp(ts);
    }

    /** What the MAC needs beside the body, from the headers; or the failure found without a MAC. */
    private record Prepared(VerificationFailure failure, Signatures signatures, byte[] ts, byte[] id) {
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
        String header = first(headers, scheme.signatureHeaders());
        if (header == null) {
            return Prepared.failed(VerificationFailure.MISSING_SIGNATURE);
        }
        Signatures signatures = parse(header);
        if (signatures == null) {
            return Prepared.failed(VerificationFailure.MALFORMED_SIGNATURE);
        }
        String ts = timestampText(signatures, headers, rawBody);
        long timestamp = timestampValue(ts);
        byte[] id = null;
        if (needs(ID)) {
            String value = first(headers, scheme.idHeaders());
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
        String id = first(headers, scheme.dedupeHeaders());
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
        String fromHeader = first(headers, scheme.dedupeHeaders());
        if (fromHeader != null) {
            return needs(ID) && fromHeader.equals(first(headers, scheme.idHeaders()));
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
            case WHSEC_BASE64 -> whsecKey(secret);
        };
    }

    /** A Standard Webhooks secret: base64 after an optional {@code whsec_}; null when it is not base64. */
    static byte[] whsecKey(String secret) {
        String encoded = secret.startsWith("whsec_") ? secret.substring("whsec_".length()) : secret;
        try {
            return Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) {
            return null;
        }
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

    /** Decimal digits only (no sign, no spaces, no other scripts' digits), else -1. */
    static long parseTimestamp(String ts) {
        if (ts == null || ts.isEmpty() || ts.length() > MAX_TIMESTAMP_DIGITS) {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < ts.length(); i++) {
            char c = ts.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /**
     * Epoch seconds of exactly {@code yyyy-MM-ddTHH:mm:ssZ} (ASCII digits, no fraction, no offset but Z), else -1 (also
     * for a time before 1970, an impossible date such as February 30, or hour 24).
     */
    static long parseIsoSeconds(String ts) {
        if (!isIsoShape(ts)) {
            return -1;
        }
        try {
            long seconds = Instant.parse(ts).getEpochSecond();
            return seconds < 0 ? -1 : seconds;
        } catch (DateTimeParseException e) {
            return -1;
        }
    }

    /** {@code dddd-dd-ddTdd:dd:ddZ} with ASCII digits; the hour is below 24 (Instant.parse reads 24:00 as midnight). */
    private static boolean isIsoShape(String ts) {
        if (ts == null || ts.length() != ISO_PATTERN.length()) {
            return false;
        }
        for (int i = 0; i < ts.length(); i++) {
            char p = ISO_PATTERN.charAt(i);
            char c = ts.charAt(i);
            if (p == 'd' ? c < '0' || c > '9' : c != p) {
                return false;
            }
        }
        return ts.charAt(11) < '2' || ts.charAt(11) == '2' && ts.charAt(12) < '4';
    }

    /** The header's signatures (and its timestamp parameter), or null when it is malformed in any way. */
    Signatures parse(String header) {
        Signatures out = new Signatures();
        if (scheme.layout() == Layout.SINGLE) {
            byte[] value = decode(header.strip());
            if (value == null) {
                return null;
            }
            out.values.add(value);
            return out;
        }
        String separator = scheme.separator();
        int start = 0;
        while (start <= header.length()) {
            int end = header.indexOf(separator, start);
            if (end < 0) {
                end = header.length();
            }
            String item = header.substring(start, end).strip();
            start = end + separator.length();
            if (item.isEmpty()) {
                // Repeated separators: a space-separated list tolerates them (Standard Webhooks pads with spaces);
                // parameters and lists with another separator (PagerDuty's comma) do not.
                if (scheme.layout() == Layout.PARAMS || !separator.isBlank()) {
                    return null;
                }
                continue;
            }
            if (!(scheme.layout() == Layout.LIST ? listItem(item, out) : param(item, out))) {
                return null;
            }
            if (out.values.size() > MAX_SIGNATURES) {
                return null;
            }
        }
        return out.values.isEmpty() ? null : out;
    }

    private boolean listItem(String item, Signatures out) {
        if (!item.startsWith(scheme.prefix())) {
            // Another version or algorithm (e.g. Standard Webhooks' asymmetric "v1a,"): not ours to check, as long as
            // it looks like one (a version token first, printable ASCII throughout).
            return isOtherVersion(item);
        }
        byte[] value = decode(item);
        if (value == null) {
            return false;
        }
        out.values.add(value);
        return true;
    }

    private boolean param(String item, Signatures out) {
        int eq = item.indexOf('=');
        if (eq <= 0) {
            return false;
        }
        String name = item.substring(0, eq).strip();
        String value = item.substring(eq + 1).strip();
        if (!isToken(name) || !isPrintable(value, 0)) {
            // Parameter names are short ASCII tokens (t, v1, ts, h1) and values non-empty printable ASCII; anything
            // else is not a header we understand.
            return false;
        }
        if (name.equals(scheme.signatureParam())) {
            byte[] decoded = decode(value);
            if (decoded == null) {
                return false;
            }
            out.values.add(decoded);
        } else if (name.equals(scheme.timestampParam())) {
            if (out.timestamp != null) {
                return false;
            }
            out.timestamp = value;
        }
        // Any other parameter (Stripe's v0, a future h2) is ignored, as the providers' own libraries do.
        return true;
    }

    /** {@code <letters/digits><the prefix's delimiter><printable ASCII>}, e.g. {@code v1a,AbC=} beside {@code v1,}. */
    private boolean isOtherVersion(String item) {
        String prefix = scheme.prefix();
        char delimiter = prefix.isEmpty() ? ',' : prefix.charAt(prefix.length() - 1);
        int at = item.indexOf(delimiter);
        return at > 0 && isToken(item.substring(0, at)) && isPrintable(item, at + 1);
    }

    /** Non-empty from {@code from} on, and only printable ASCII (no spaces, no controls, nothing beyond 0x7e). */
    private static boolean isPrintable(String s, int from) {
        if (s.length() <= from) {
            return false;
        }
        for (int i = from; i < s.length(); i++) {
            if (s.charAt(i) < 0x21 || s.charAt(i) > 0x7e) {
                return false;
            }
        }
        return true;
    }

    private static boolean isToken(String name) {
        return isToken(name, 16);
    }

    /** 1 to {@code maxLength} characters of A-Z, a-z, 0-9, '-' and '_' (header and parameter names). */
    static boolean isToken(String name, int maxLength) {
        if (name.isEmpty() || name.length() > maxLength) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-')) {
                return false;
            }
        }
        return true;
    }

    /** The MAC bytes after the prefix, or null when the encoding or length is wrong. */
    private byte[] decode(String prefixed) {
        if (!prefixed.startsWith(scheme.prefix())) {
            return null;
        }
        String value = prefixed.substring(scheme.prefix().length());
        byte[] bytes;
        if (scheme.encoding() == SignatureScheme.Encoding.HEX) {
            bytes = Hex.decode(value);
        } else {
            bytes = base64(value);
        }
        return bytes != null && bytes.length == scheme.algorithm().macLength ? bytes : null;
    }

    /**
     * Strict base64: padding optional, but the encoding must be canonical (no stray bits in the last character), so
     * one MAC has exactly one accepted spelling. Null when it is not.
     */
    static byte[] base64(String value) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(value);
        } catch (IllegalArgumentException e) {
            return null;
        }
        String canonical = Base64.getEncoder().withoutPadding().encodeToString(bytes);
        int end = value.length();
        while (end > 0 && value.charAt(end - 1) == '=') {
            end--;
        }
        return canonical.length() == end && value.startsWith(canonical) ? bytes : null;
    }

    /** The first of the headers present with a non-blank value, stripped; null when none is. */
    static String first(Function<String, String> headers, List<String> names) {
        for (int i = 0; i < names.size(); i++) {
            String value = headers.apply(names.get(i));
            if (value != null && !value.isBlank()) {
                return value.strip();
            }
        }
        return null;
    }

    /** The signatures one header carries. */
    static final class Signatures {
        final List<byte[]> values = new ArrayList<>(2);
        String timestamp;
    }
}
