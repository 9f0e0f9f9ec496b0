package io.webhookbuffer.common;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * HMAC and SHA-256 helpers. {@link Mac} and {@link MessageDigest} instances are not thread-safe and
 * costly to look up, so each thread keeps its own (a verify of 1 KB is then about 1 µs).
 */
public final class Hmac {

    private static final ThreadLocal<Mac> SHA256_MAC = ThreadLocal.withInitial(() -> mac("HmacSHA256"));
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(Hmac::sha256Digest);

    private Hmac() {
    }

    public static byte[] hmacSha256(byte[] key, byte[]... parts) {
        Mac mac = SHA256_MAC.get();
        try {
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 rejected its key", e);
        }
        for (byte[] part : parts) {
            mac.update(part);
        }
        return mac.doFinal();
    }

    public static byte[] hmacSha256(String key, byte[]... parts) {
        return hmacSha256(key.getBytes(StandardCharsets.UTF_8), parts);
    }

    public static byte[] sha256(byte[] data) {
        MessageDigest digest = SHA256.get();
        digest.reset();
        return digest.digest(data);
    }

    /**
     * SHA-256 of {@code data} without the byte ranges {@code cuts} names: pairs of start (inclusive) and end
     * (exclusive) offsets, in order and not overlapping. No copy of the data is made.
     */
    public static byte[] sha256Outside(byte[] data, int[] cuts) {
        MessageDigest digest = SHA256.get();
        digest.reset();
        int from = 0;
        for (int i = 0; i < cuts.length; i += 2) {
            digest.update(data, from, cuts[i] - from);
            from = cuts[i + 1];
        }
        digest.update(data, from, data.length - from);
        return digest.digest();
    }

    /** Constant-time comparison; {@code false} when either side is missing. */
    public static boolean constantTimeEquals(byte[] a, byte[] b) {
        return a != null && b != null && MessageDigest.isEqual(a, b);
    }

    /** A short, non-reversible name for a secret: the first 12 hex digits of its SHA-256. */
    public static String fingerprint(String secret) {
        return HexFormat.of().formatHex(sha256(secret.getBytes(StandardCharsets.UTF_8))).substring(0, 12);
    }

    private static Mac mac(String algorithm) {
        try {
            return Mac.getInstance(algorithm);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm + " is not available in this JVM", e);
        }
    }

    private static MessageDigest sha256Digest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is not available in this JVM", e);
        }
    }
}
