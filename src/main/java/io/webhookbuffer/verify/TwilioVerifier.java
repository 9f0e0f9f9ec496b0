package io.webhookbuffer.verify;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import javax.crypto.Mac;

import io.webhookbuffer.verify.SignatureScheme.Algorithm;

/**
 * Twilio: {@code X-Twilio-Signature} is the base64 HMAC-SHA1, keyed with the account's auth token, of the full public
 * URL (as configured at Twilio: scheme, host, path, query) followed by every POST parameter sorted by name, each as
 * name then value with no separators. Only {@code application/x-www-form-urlencoded} bodies are verified: for other
 * bodies Twilio signs a {@code bodySHA256} query parameter that the configured URL does not carry, so they are
 * refused (fail closed). The dedupe id is {@code I-Twilio-Idempotency-Token}.
 */
public final class TwilioVerifier implements SignatureVerifier {

    public static final String SIGNATURE_HEADER = "X-Twilio-Signature";
    public static final String IDEMPOTENCY_HEADER = "I-Twilio-Idempotency-Token";
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final Comparator<String[]> BY_NAME_THEN_VALUE = Comparator.<String[], String>comparing(p -> p[0])
            .thenComparing(p -> p[1]);

    private final byte[] url;

    public TwilioVerifier(String publicUrl) {
        if (publicUrl == null || publicUrl.isEmpty()) {
            throw new IllegalArgumentException("Twilio signs the public URL; the tenant needs 'publicUrl'");
        }
        this.url = publicUrl.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets,
            long receivedAtMillis) {
        String header = SignatureText.first(headers, List.of(SIGNATURE_HEADER));
        if (header == null) {
            return VerificationFailure.MISSING_SIGNATURE;
        }
        byte[] provided = SignatureText.base64(header);
        if (provided == null || provided.length != Algorithm.SHA1.macLength) {
            return VerificationFailure.MALFORMED_SIGNATURE;
        }
        List<String[]> params = rawBody.length == 0 ? List.of() : formParams(headers, rawBody);
        if (params == null) {
            return VerificationFailure.BAD_SIGNATURE;
        }
        if (secrets == null || secrets.isEmpty()) {
            return VerificationFailure.NO_SECRET;
        }
        boolean match = false;
        for (String secret : secrets) {
            Mac mac = Macs.init(Algorithm.SHA1, secret.getBytes(StandardCharsets.UTF_8));
            mac.update(url);
            for (String[] param : params) {
                mac.update(param[0].getBytes(StandardCharsets.UTF_8));
                mac.update(param[1].getBytes(StandardCharsets.UTF_8));
            }
            match |= MessageDigest.isEqual(mac.doFinal(), provided);
        }
        return match ? VerificationFailure.NONE : VerificationFailure.BAD_SIGNATURE;
    }

    @Override
    public String dedupeId(Function<String, String> headers, byte[] rawBody) {
        return SignatureText.first(headers, List.of(IDEMPOTENCY_HEADER));
    }

    /** The decoded form parameters sorted by name (then value), or null when the body is not a well-formed form. */
    static List<String[]> formParams(Function<String, String> headers, byte[] rawBody) {
        String type = headers.apply("Content-Type");
        if (type == null || !type.strip().toLowerCase(Locale.ROOT).startsWith(FORM)) {
            return null;
        }
        String body = new String(rawBody, StandardCharsets.UTF_8);
        List<String[]> params = new ArrayList<>();
        try {
            for (String pair : body.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = eq < 0 ? pair : pair.substring(0, eq);
                String value = eq < 0 ? "" : pair.substring(eq + 1);
                params.add(new String[] { URLDecoder.decode(name, StandardCharsets.UTF_8),
                        URLDecoder.decode(value, StandardCharsets.UTF_8) });
            }
        } catch (IllegalArgumentException e) {
            return null;
        }
        params.sort(BY_NAME_THEN_VALUE);
        return params;
    }
}
