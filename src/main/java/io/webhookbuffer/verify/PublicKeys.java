package io.webhookbuffer.verify;

import java.security.AlgorithmParameters;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.security.spec.ECParameterSpec;
import java.security.spec.X509EncodedKeySpec;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.webhookbuffer.common.Hex;

/**
 * Public verification keys given as tenant "secrets" (SendGrid's ECDSA P-256 key, Discord's and Standard Webhooks'
 * Ed25519 keys), parsed once per distinct value and cached (a bounded map, cleared when full, as
 * {@link Providers}' bound verifiers are), and the signature checks made with them. JDK providers only.
 */
final class PublicKeys {

    /** How a tenant secret spells its public key. */
    enum Format {
        /** SendGrid: base64 of the DER SubjectPublicKeyInfo of a P-256 (secp256r1) key. */
        P256_SPKI_BASE64,
        /** Discord: hex of the 32-byte raw Ed25519 key. */
        ED25519_HEX,
        /** Standard Webhooks: {@code whpk_} followed by base64 of the 32-byte raw Ed25519 key. */
        ED25519_WHPK
    }

    /** The signature algorithm, and the largest signature it can have (refused above that before any crypto). */
    enum Algorithm {
        /** DER {@code SEQUENCE { INTEGER r, INTEGER s }}: at most 2 + 2 * (2 + 33) = 72 bytes for P-256. */
        ECDSA_P256_SHA256("SHA256withECDSA", 72),
        ED25519("Ed25519", 64);

        final String jca;
        final int maxSignatureBytes;

        Algorithm(String jca, int maxSignatureBytes) {
            this.jca = jca;
            this.maxSignatureBytes = maxSignatureBytes;
        }
    }

    static final String WHPK = "whpk_";
    static final int ED25519_KEY_BYTES = 32;
    /** An SPKI for P-256 is 91 bytes; anything far larger is not a key of ours and is not parsed. */
    private static final int MAX_KEY_CHARS = 512;
    private static final int MAX_CACHED = 10_000;
    /** The DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410), before the 32 raw key bytes. */
    private static final byte[] ED25519_SPKI_PREFIX = Hex.decode("302a300506032b6570032100");
    private static final ECParameterSpec P256 = p256();
    private static final Map<Algorithm, ThreadLocal<Signature>> SIGNATURES = new EnumMap<>(Algorithm.class);
    /** Parsed keys by format and the secret's text; the text is a public key, never a secret. */
    private static final Map<String, Parsed> CACHE = new ConcurrentHashMap<>();

    static {
        for (Algorithm algorithm : Algorithm.values()) {
            SIGNATURES.put(algorithm, ThreadLocal.withInitial(() -> signature(algorithm.jca)));
        }
    }

    private PublicKeys() {
    }

    /** A key, or why the text is not one (the message names no value). */
    record Parsed(PublicKey key, String problem) {
    }

    /** The key the text spells in this format, or null when it spells none (see {@link #parse}). */
    static PublicKey key(Format format, String text) {
        return parse(format, text).key();
    }

    /** The text parsed as a key of this format: from the cache, else parsed once and cached. Never throws. */
    static Parsed parse(Format format, String text) {
        if (text == null || text.length() > MAX_KEY_CHARS) {
            return new Parsed(null, "is not a public key (too long)");
        }
        String cacheKey = format.ordinal() + ":" + text;
        Parsed cached = CACHE.get(cacheKey);
        if (cached != null) {
            return cached;
        }
        Parsed parsed = switch (format) {
            case P256_SPKI_BASE64 -> p256Key(text.strip());
            case ED25519_HEX -> ed25519Key(Hex.decode(text.strip()), "hex");
            case ED25519_WHPK -> text.startsWith(WHPK)
                    ? ed25519Key(SignatureText.base64(text.substring(WHPK.length())), "base64 after 'whpk_'")
                    : new Parsed(null, "is not a Standard Webhooks public key ('whpk_' followed by base64)");
        };
        if (CACHE.size() >= MAX_CACHED) {
            CACHE.clear();
        }
        CACHE.put(cacheKey, parsed);
        return parsed;
    }

    /**
     * Whether {@code signature} is a valid signature of the concatenated parts under the key. A signature the
     * algorithm cannot read (a DER that does not parse) is simply not valid; nothing is thrown.
     */
    static boolean verify(Algorithm algorithm, PublicKey key, byte[] signature, byte[]... parts) {
        Signature verifier = SIGNATURES.get(algorithm).get();
        try {
            verifier.initVerify(key);
            for (byte[] part : parts) {
                verifier.update(part);
            }
            return verifier.verify(signature);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * Whether the bytes are one DER {@code SEQUENCE} of exactly two positive {@code INTEGER}s of at most 33 bytes
     * each (an ECDSA P-256 signature), with nothing after it: checked before any curve arithmetic.
     */
    static boolean isDerEcdsaSignature(byte[] der) {
        if (der == null || der.length < 8 || der.length > Algorithm.ECDSA_P256_SHA256.maxSignatureBytes
                || der[0] != 0x30 || (der[1] & 0xff) != der.length - 2) {
            return false;
        }
        int s = derInteger(der, 2);
        return s > 0 && derInteger(der, s) == der.length;
    }

    /** Where the positive DER INTEGER of 1 to 33 bytes at {@code at} ends, or -1 when there is none. */
    private static int derInteger(byte[] der, int at) {
        if (at + 2 > der.length || der[at] != 0x02) {
            return -1;
        }
        int length = der[at + 1] & 0xff;
        boolean fits = length >= 1 && length <= 33 && at + 2 + length <= der.length;
        return fits && (der[at + 2] & 0x80) == 0 ? at + 2 + length : -1;
    }

    private static Parsed p256Key(String base64) {
        byte[] der = SignatureText.base64(base64);
        if (der == null || der.length == 0) {
            return new Parsed(null, "is not base64 (SendGrid shows the verification key as base64 of its DER)");
        }
        try {
            PublicKey key = KeyFactory.getInstance("EC").generatePublic(new X509EncodedKeySpec(der));
            if (!(key instanceof ECPublicKey ec) || !isP256(ec.getParams())) {
                return new Parsed(null, "is an EC key of another curve (SendGrid signs with P-256)");
            }
            return new Parsed(key, null);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return new Parsed(null, "is not an EC public key (DER SubjectPublicKeyInfo)");
        }
    }

    private static Parsed ed25519Key(byte[] raw, String encoding) {
        if (raw == null || raw.length != ED25519_KEY_BYTES) {
            return new Parsed(null, "is not an Ed25519 public key (32 bytes, " + encoding + ")");
        }
        byte[] spki = new byte[ED25519_SPKI_PREFIX.length + raw.length];
        System.arraycopy(ED25519_SPKI_PREFIX, 0, spki, 0, ED25519_SPKI_PREFIX.length);
        System.arraycopy(raw, 0, spki, ED25519_SPKI_PREFIX.length, raw.length);
        try {
            return new Parsed(KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(spki)), null);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            return new Parsed(null, "is not an Ed25519 public key (32 bytes, " + encoding + ")");
        }
    }

    private static boolean isP256(ECParameterSpec params) {
        return params != null && params.getCurve().equals(P256.getCurve()) && params.getOrder().equals(P256.getOrder())
                && params.getGenerator().equals(P256.getGenerator()) && params.getCofactor() == P256.getCofactor();
    }

    private static ECParameterSpec p256() {
        try {
            AlgorithmParameters parameters = AlgorithmParameters.getInstance("EC");
            parameters.init(new ECGenParameterSpec("secp256r1"));
            return parameters.getParameterSpec(ECParameterSpec.class);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("secp256r1 is not available in this JVM", e);
        }
    }

    private static Signature signature(String jca) {
        try {
            return Signature.getInstance(jca);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(jca + " is not available in this JVM", e);
        }
    }
}
