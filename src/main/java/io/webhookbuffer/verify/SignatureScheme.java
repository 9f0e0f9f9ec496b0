package io.webhookbuffer.verify;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A declarative signature scheme: which header carries the signature and how it is laid out, which HMAC and
 * encoding, what content is signed (a template over the raw body), where a signed timestamp comes from and how old
 * it may be, and where the provider's own event id lives. Every preset in {@link Providers} but Twilio's and
 * GitLab's token is one of these, and so is a tenant's custom scheme. Immutable; checked at construction.
 *
 * @param signatureHeaders header names to read, first present wins (aliases such as {@code svix-signature})
 * @param algorithm the HMAC
 * @param encoding how the MAC is written
 * @param prefix what precedes each signature (e.g. {@code sha256=}, {@code v0=}, {@code v1,}); may be empty
 * @param layout one signature, a separated list of signatures, or {@code key=value} parameters
 * @param separator the list separator ({@link Layout#LIST}) or the pair separator ({@link Layout#PARAMS})
 * @param signatureParam the parameter naming a signature ({@link Layout#PARAMS}, e.g. {@code v1}, {@code h1})
 * @param timestampParam the parameter carrying the timestamp ({@link Layout#PARAMS}, e.g. {@code t}, {@code ts})
 * @param signedContent the signed bytes as a template over {@code {body}}, {@code {ts}}, {@code {id}}, {@code {url}}
 * @param timestamp where the timestamp comes from
 * @param timestampHeaders header names for {@link TimestampSource#HEADER}, first present wins
 * @param timestampBodyField top-level body field for {@link TimestampSource#BODY}
 * @param timestampUnit seconds or milliseconds since the epoch, or an ISO 8601 UTC time
 * @param toleranceSeconds how far the timestamp may be from the receive time, in either direction
 * @param idHeaders header names for {@code {id}}, first present wins
 * @param key how a tenant secret becomes the HMAC key
 * @param dedupeHeaders headers holding the provider's event id, first non-blank wins (or empty)
 * @param dedupeBodyField top-level body field holding the provider's event id (or null)
 */
public record SignatureScheme(List<String> signatureHeaders, Algorithm algorithm, Encoding encoding, String prefix,
        Layout layout, String separator, String signatureParam, String timestampParam, String signedContent,
        TimestampSource timestamp, List<String> timestampHeaders, String timestampBodyField,
        TimestampUnit timestampUnit, int toleranceSeconds, List<String> idHeaders, KeyEncoding key,
        List<String> dedupeHeaders, String dedupeBodyField) {

    /** Placeholders of {@link #signedContent()}. */
    public static final List<String> PLACEHOLDERS = List.of("{body}", "{ts}", "{id}", "{url}");
    public static final int MAX_TOLERANCE_SECONDS = 86_400;

    public enum Algorithm {
        SHA1("HmacSHA1", 20), SHA256("HmacSHA256", 32), SHA512("HmacSHA512", 64);

        final String jca;
        final int macLength;

        Algorithm(String jca, int macLength) {
            this.jca = jca;
            this.macLength = macLength;
        }
    }

    public enum Encoding { HEX, BASE64 }

    public enum Layout { SINGLE, LIST, PARAMS }

    public enum TimestampSource { NONE, HEADER, PARAM, BODY }

    /**
     * Seconds or milliseconds since the epoch (decimal digits), or {@code ISO_8601}: a UTC time to the second,
     * exactly {@code yyyy-MM-ddTHH:mm:ssZ} (Zendesk's {@code X-Zendesk-Webhook-Signature-Timestamp}).
     */
    public enum TimestampUnit { SECONDS, MILLISECONDS, ISO_8601 }

    /** {@code UTF8}: the secret's bytes; {@code WHSEC_BASE64}: Standard Webhooks, base64 after an optional {@code whsec_}. */
    public enum KeyEncoding { UTF8, WHSEC_BASE64 }

    public SignatureScheme {
        signatureHeaders = List.copyOf(signatureHeaders);
        timestampHeaders = timestampHeaders == null ? List.of() : List.copyOf(timestampHeaders);
        idHeaders = idHeaders == null ? List.of() : List.copyOf(idHeaders);
        dedupeHeaders = dedupeHeaders == null ? List.of() : List.copyOf(dedupeHeaders);
        prefix = prefix == null ? "" : prefix;
        require(!signatureHeaders.isEmpty(), "at least one signature header is needed");
        require(algorithm != null && encoding != null && layout != null && timestamp != null && key != null,
                "algorithm, encoding, layout, timestamp source and key encoding are required");
        require(layout == Layout.SINGLE || (separator != null && !separator.isEmpty()),
                "a list or parameter layout needs a separator");
        require(layout != Layout.PARAMS || (signatureParam != null && !signatureParam.isEmpty()),
                "a parameter layout needs the signature parameter's name");
        require(timestamp != TimestampSource.PARAM || (layout == Layout.PARAMS && timestampParam != null
                && !timestampParam.isEmpty()), "a timestamp parameter needs a parameter layout and its name");
        require(timestamp != TimestampSource.HEADER || !timestampHeaders.isEmpty(),
                "a timestamp header source needs the header's name");
        require(timestamp != TimestampSource.BODY || (timestampBodyField != null && !timestampBodyField.isEmpty()),
                "a body timestamp needs the field's name");
        require(timestamp == TimestampSource.NONE || (toleranceSeconds >= 1 && toleranceSeconds <= MAX_TOLERANCE_SECONDS),
                "the tolerance must be from 1 to " + MAX_TOLERANCE_SECONDS + " seconds");
        require(signedContent != null && signedContent.contains("{body}"), "the signed content must include {body}");
        List<String> used = placeholders(signedContent);
        require(!used.contains("{ts}") || timestamp == TimestampSource.HEADER || timestamp == TimestampSource.PARAM,
                "{ts} needs a timestamp from a header or the signature header's parameters");
        require(!used.contains("{id}") || !idHeaders.isEmpty(), "{id} needs the id header's name");
        timestampUnit = timestampUnit == null ? TimestampUnit.SECONDS : timestampUnit;
    }

    public static Builder builder(String... signatureHeaders) {
        return new Builder(List.of(signatureHeaders));
    }

    /** Whether requests carry a signed timestamp (and a tolerance applies). */
    public boolean signsTimestamp() {
        return timestamp != TimestampSource.NONE;
    }

    /** Whether the signed content includes the tenant's public URL. */
    public boolean signsUrl() {
        return signedContent.contains("{url}");
    }

    public SignatureScheme withTolerance(int seconds) {
        return new SignatureScheme(signatureHeaders, algorithm, encoding, prefix, layout, separator, signatureParam,
                timestampParam, signedContent, timestamp, timestampHeaders, timestampBodyField, timestampUnit, seconds,
                idHeaders, key, dedupeHeaders, dedupeBodyField);
    }

    /**
     * The template split into literal and placeholder parts, in order; fails on an unknown or unclosed placeholder.
     * Literal parts are returned as they are written; a placeholder as its name including braces.
     */
    static List<String> parts(String template) {
        List<String> parts = new ArrayList<>();
        int i = 0;
        while (i < template.length()) {
            int open = template.indexOf('{', i);
            if (open < 0) {
                parts.add(template.substring(i));
                break;
            }
            if (open > i) {
                parts.add(template.substring(i, open));
            }
            int close = template.indexOf('}', open);
            require(close > open, "unclosed placeholder in the signed content");
            String name = template.substring(open, close + 1);
            require(PLACEHOLDERS.contains(name), "unknown placeholder " + name + "; known: " + PLACEHOLDERS);
            parts.add(name);
            i = close + 1;
        }
        return parts;
    }

    static byte[] literal(String part) {
        return part.getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> placeholders(String template) {
        return parts(template).stream().filter(PLACEHOLDERS::contains).toList();
    }

    private static void require(boolean condition, String message) {
        if (!condition) {
            throw new IllegalArgumentException(message);
        }
    }

    /** Builds a scheme; the defaults are a single lowercase-hex HMAC-SHA256 of the body, no timestamp, no id. */
    public static final class Builder {
        private final List<String> signatureHeaders;
        private Algorithm algorithm = Algorithm.SHA256;
        private Encoding encoding = Encoding.HEX;
        private String prefix = "";
        private Layout layout = Layout.SINGLE;
        private String separator;
        private String signatureParam;
        private String timestampParam;
        private String signedContent = "{body}";
        private TimestampSource timestamp = TimestampSource.NONE;
        private List<String> timestampHeaders = List.of();
        private String timestampBodyField;
        private TimestampUnit timestampUnit = TimestampUnit.SECONDS;
        private int toleranceSeconds;
        private List<String> idHeaders = List.of();
        private KeyEncoding key = KeyEncoding.UTF8;
        private List<String> dedupeHeaders = List.of();
        private String dedupeBodyField;

        private Builder(List<String> signatureHeaders) {
            this.signatureHeaders = signatureHeaders;
        }

        public Builder algorithm(Algorithm value) {
            this.algorithm = value;
            return this;
        }

        public Builder encoding(Encoding value) {
            this.encoding = value;
            return this;
        }

        public Builder prefix(String value) {
            this.prefix = value;
            return this;
        }

        /** Several signatures separated by {@code value}, each with the prefix; items with another prefix are skipped. */
        public Builder list(String value) {
            this.layout = Layout.LIST;
            this.separator = value;
            return this;
        }

        /** {@code key=value} pairs separated by {@code pairSeparator}; every {@code signatureParam} is a signature. */
        public Builder params(String pairSeparator, String signatureParam) {
            this.layout = Layout.PARAMS;
            this.separator = pairSeparator;
            this.signatureParam = signatureParam;
            return this;
        }

        public Builder signedContent(String template) {
            this.signedContent = template;
            return this;
        }

        public Builder timestampFromParam(String param, int tolerance) {
            this.timestamp = TimestampSource.PARAM;
            this.timestampParam = param;
            this.toleranceSeconds = tolerance;
            return this;
        }

        public Builder timestampFromHeader(int tolerance, String... headers) {
            this.timestamp = TimestampSource.HEADER;
            this.timestampHeaders = List.of(headers);
            this.toleranceSeconds = tolerance;
            return this;
        }

        public Builder timestampFromBody(String field, TimestampUnit unit, int tolerance) {
            this.timestamp = TimestampSource.BODY;
            this.timestampBodyField = field;
            this.timestampUnit = unit;
            this.toleranceSeconds = tolerance;
            return this;
        }

        public Builder timestampUnit(TimestampUnit unit) {
            this.timestampUnit = unit;
            return this;
        }

        public Builder idHeaders(String... headers) {
            this.idHeaders = List.of(headers);
            return this;
        }

        public Builder key(KeyEncoding value) {
            this.key = value;
            return this;
        }

        public Builder dedupeHeaders(String... headers) {
            this.dedupeHeaders = List.of(headers);
            return this;
        }

        public Builder dedupeBodyField(String field) {
            this.dedupeBodyField = field;
            return this;
        }

        public SignatureScheme build() {
            return new SignatureScheme(signatureHeaders, algorithm, encoding, prefix, layout, separator, signatureParam,
                    timestampParam, signedContent, timestamp, timestampHeaders, timestampBodyField, timestampUnit,
                    toleranceSeconds, idHeaders, key, dedupeHeaders, dedupeBodyField);
        }
    }
}
