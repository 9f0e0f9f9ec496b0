package io.webhookbuffer.verify;

import java.util.ArrayList;
import java.util.List;

import io.webhookbuffer.common.Hex;
import io.webhookbuffer.verify.SignatureScheme.Layout;

/**
 * Reads a {@link SignatureScheme}'s signature header: its layout (one value, a list, parameters), the prefix, the
 * encoding and the MAC's length. A header that is malformed in any way is refused whole, before any MAC is computed.
 */
final class SignatureHeader {

    private final SignatureScheme scheme;

    SignatureHeader(SignatureScheme scheme) {
        this.scheme = scheme;
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
            if (out.values.size() > SignatureText.MAX_SIGNATURES) {
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
        if (!isToken(name) || !SignatureText.isPrintable(value, 0)) {
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
        return at > 0 && isToken(item.substring(0, at)) && SignatureText.isPrintable(item, at + 1);
    }

    private static boolean isToken(String name) {
        return SignatureText.isToken(name, 16);
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
            bytes = SignatureText.base64(value);
        }
        return bytes != null && bytes.length == scheme.algorithm().macLength ? bytes : null;
    }

    /** The signatures one header carries. */
    static final class Signatures {
        final List<byte[]> values = new ArrayList<>(2);
        String timestamp;
    }
}
