package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import io.webhookbuffer.verify.PublicKeys.Algorithm;
import io.webhookbuffer.verify.PublicKeys.Format;

/**
 * Standard Webhooks with both of its signature kinds: {@code v1,} entries (HMAC-SHA256) checked by the preset's
 * {@link SchemeVerifier} with the tenant's {@code whsec_} secrets, and {@code v1a,} entries (Ed25519 over the same
 * {@code {webhook-id}.{webhook-timestamp}.{body}}) checked with its {@code whpk_} public keys. A tenant may hold both
 * kinds at once (moving from one to the other); a request is accepted when any entry matches any key of its kind.
 */
final class StandardWebhooksVerifier extends WrappingVerifier {

    private static final String V1A = "v1a,";
    private static final String V1 = "v1,";
    private static final int V1A_BYTES = Algorithm.ED25519.maxSignatureBytes;
    private static final int V1_BYTES = 32;
    private static final byte[] DOT = { '.' };

    private final SchemeVerifier hmac;
    private final SignatureScheme spec;

    StandardWebhooksVerifier(SchemeVerifier hmac) {
        super(hmac); // the dedupe id and whether it is signed are the HMAC scheme's
        this.hmac = hmac;
        this.spec = hmac.scheme();
    }

    /** None: {@link #verify} looks at more than the scheme's MAC. */
    @Override
    public BodyCheck bodyCheck(Function<String, String> headers, List<String> secrets, long receivedAtMillis) {
        return null;
    }

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        String header = SignatureText.first(headers, spec.signatureHeaders());
        if (header == null) {
            return VerificationFailure.MISSING_SIGNATURE;
        }
        Entries entries = entries(header);
        if (entries == null) {
            return VerificationFailure.MALFORMED_SIGNATURE;
        }
        String id = SignatureText.first(headers, spec.idHeaders());
        String ts = SignatureText.first(headers, spec.timestampHeaders());
        VerificationFailure refused = refusedUnsigned(id, ts, secrets, receivedAtMillis);
        if (refused != null) {
            return refused;
        }
        if (matchesV1a(entries.v1a, kind(secrets, true), id, ts, rawBody)) {
            return VerificationFailure.NONE;
        }
        List<String> hmacSecrets = kind(secrets, false);
        // The v1 entries, if any, by the HMAC scheme (which skips the v1a ones) with the whsec_ secrets.
        return entries.v1 && !hmacSecrets.isEmpty() ? hmac.verify(headers, rawBody, hmacSecrets, receivedAtMillis)
                : VerificationFailure.BAD_SIGNATURE;
    }

    /** What is refused before any secret is read (a missing id, a malformed or stale timestamp, no secret), or null. */
    private VerificationFailure refusedUnsigned(String id, String ts, List<String> secrets, long receivedAtMillis) {
        long timestamp = SignatureText.parseTimestamp(ts);
        if (id == null || timestamp < 0) {
            return VerificationFailure.MALFORMED_SIGNATURE;
        }
        if (!PublicKeyVerifier.fresh(timestamp, receivedAtMillis, spec.toleranceSeconds())) {
            // An old or invented timestamp costs no MAC and no curve arithmetic.
            return VerificationFailure.STALE_TIMESTAMP;
        }
        return secrets == null || secrets.isEmpty() ? VerificationFailure.NO_SECRET : null;
    }

    private static boolean matchesV1a(List<byte[]> signatures, List<String> publicKeys, String id, String ts,
            byte[] rawBody) {
        byte[] idBytes = id.getBytes(StandardCharsets.UTF_8);
        byte[] tsBytes = ts.getBytes(StandardCharsets.US_ASCII);
        for (String text : publicKeys) {
            PublicKey key = PublicKeys.key(Format.ED25519_WHPK, text);
            for (byte[] signature : signatures) {
                // A public key hides nothing: an early exit tells nothing about the tenant's whsec_ secrets.
                if (key != null && PublicKeys.verify(Algorithm.ED25519, key, signature, idBytes, DOT, tsBytes, DOT,
                        rawBody)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The whpk_ public keys among the secrets ({@code publicKeys} true), or the others. */
    private static List<String> kind(List<String> secrets, boolean publicKeys) {
        List<String> out = new ArrayList<>(2);
        for (String secret : secrets) {
            if (secret.startsWith(PublicKeys.WHPK) == publicKeys) {
                out.add(secret);
            }
        }
        return out;
    }

    /** What a header carries that a key could check: well-formed v1a signatures, and whether any v1 entry is. */
    record Entries(List<byte[]> v1a, boolean v1) {
    }

    /**
     * The header's well-formed {@code v1a,} signatures (64 bytes of base64) and whether a well-formed {@code v1,}
     * entry is there too; null when there are more than {@link SignatureText#MAX_SIGNATURES} entries or nothing any
     * key could check. A malformed entry beside a well-formed one is skipped, as entries of other versions are.
     */
    static Entries entries(String header) {
        List<byte[]> v1a = new ArrayList<>(1);
        boolean v1 = false;
        int entries = 0;
        int start = 0;
        while (start < header.length()) {
            int end = header.indexOf(' ', start);
            end = end < 0 ? header.length() : end;
            String item = header.substring(start, end);
            start = end + 1;
            if (item.isEmpty()) {
                continue;
            }
            if (++entries > SignatureText.MAX_SIGNATURES) {
                return null;
            }
            byte[] signature = item.startsWith(V1A) ? decode(item.substring(V1A.length()), V1A_BYTES) : null;
            if (signature != null) {
                v1a.add(signature);
            }
            v1 |= item.startsWith(V1) && decode(item.substring(V1.length()), V1_BYTES) != null;
        }
        return v1a.isEmpty() && !v1 ? null : new Entries(v1a, v1);
    }

    /** Canonical base64 of exactly {@code length} bytes, else null; a value too long for it is not decoded. */
    private static byte[] decode(String base64, int length) {
        byte[] bytes = base64.length() > (length + 2) / 3 * 4 ? null : SignatureText.base64(base64);
        return bytes != null && bytes.length == length ? bytes : null;
    }

    @Override
    public boolean costly(List<String> secrets) {
        for (String secret : secrets) {
            if (secret.startsWith(PublicKeys.WHPK)) {
                return true;
            }
        }
        return false;
    }
}
