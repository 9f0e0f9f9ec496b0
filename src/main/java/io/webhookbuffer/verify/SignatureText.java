package io.webhookbuffer.verify;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

/**
 * How signatures, timestamps, names and secrets are written in a request and a tenant's settings, read strictly: the
 * readers every verifier shares. Each answers null or -1 (or false) for text that is not exactly what it reads.
 */
final class SignatureText {

    /** More signatures than this in one header is not a rotation, it is an attack on the verifier's time. */
    static final int MAX_SIGNATURES = 16;
    /** Epoch milliseconds fit in 13 digits until the year 2286; longer numbers are refused before parsing. */
    private static final int MAX_TIMESTAMP_DIGITS = 15;
    /** The shape of an {@link SignatureScheme.TimestampUnit#ISO_8601} timestamp: {@code d} is an ASCII digit. */
    private static final String ISO_PATTERN = "dddd-dd-ddTdd:dd:ddZ";

    private SignatureText() {
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

    /** Non-empty from {@code from} on, and only printable ASCII (no spaces, no controls, nothing beyond 0x7e). */
    static boolean isPrintable(String s, int from) {
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

    /** 1 to {@code maxLength} characters of A-Z, a-z, 0-9, '-' and '_' (header and parameter names). */
    static boolean isToken(String name, int maxLength) {
        if (name.isEmpty() || name.length() > maxLength) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            if (!isTokenChar(name.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    private static boolean isTokenChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
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
}
