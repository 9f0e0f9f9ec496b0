package io.webhookbuffer.verify;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.webhookbuffer.verify.SignatureScheme.Algorithm;
import io.webhookbuffer.verify.SignatureScheme.Encoding;
import io.webhookbuffer.verify.SignatureScheme.KeyEncoding;
import io.webhookbuffer.verify.SignatureScheme.TimestampUnit;

/**
 * A tenant's own scheme ({@code "provider": "custom"}, {@code "customScheme": {...}}), read strictly: unknown
 * fields, wrong types and impossible combinations are refused with a message that names the field. The knobs are
 * those of the presets, so a provider this build does not ship still works without a release. See docs/providers.md
 * "Custom scheme".
 */
public final class CustomSchemes {

    public static final Set<String> FIELDS = Set.of("signatureHeader", "algorithm", "encoding", "prefix", "layout",
            "separator", "signatureParam", "timestampParam", "signedContent", "timestampSource", "timestampHeader",
            "timestampField", "timestampUnit", "toleranceSeconds", "idHeader", "secretEncoding", "dedupeHeader",
            "dedupeField");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_NAME = 100;
    private static final int MAX_TEXT = 200;

    private CustomSchemes() {
    }

    /** A stored scheme (the JSON text the control plane wrote), or null when there is none or it is unusable. */
    public static SignatureScheme parseStored(String json) {
        if (json == null || json.isEmpty()) {
            return null;
        }
        try {
            return parse(JSON.readTree(json));
        } catch (IOException | IllegalArgumentException e) {
            // Failure policy: an unusable stored scheme is no scheme; the tenant then fails closed (401).
            return null;
        }
    }

    /**
     * @throws IllegalArgumentException with a message for the operator when the object is not a valid scheme
     */
    public static SignatureScheme parse(JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("'customScheme' must be a JSON object.");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            String name = it.next().getKey();
            if (!FIELDS.contains(name)) {
                throw new IllegalArgumentException("Unknown field 'customScheme." + name + "'; known fields are "
                        + FIELDS + ".");
            }
        }
        SignatureScheme.Builder b = SignatureScheme.builder(headers(node, "signatureHeader", true)
                .toArray(String[]::new));
        b.algorithm(choice(node, "algorithm", Algorithm.class, Algorithm.SHA256));
        b.encoding(choice(node, "encoding", Encoding.class, Encoding.HEX));
        b.prefix(text(node, "prefix", ""));
        String layout = text(node, "layout", "single");
        String separator = text(node, "separator", null);
        switch (layout) {
            case "single" -> {
                if (separator != null) {
                    throw new IllegalArgumentException("'customScheme.separator' needs layout 'list' or 'params'.");
                }
            }
            case "list" -> b.list(required(separator, "separator"));
            case "params" -> b.params(required(separator, "separator"), required(text(node, "signatureParam", null),
                    "signatureParam"));
            default -> throw new IllegalArgumentException(
                    "'customScheme.layout' must be one of [single, list, params].");
        }
        b.signedContent(text(node, "signedContent", "{body}"));
        timestamp(node, b);
        List<String> idHeaders = headers(node, "idHeader", false);
        b.idHeaders(idHeaders.toArray(String[]::new));
        String key = text(node, "secretEncoding", "utf8");
        switch (key) {
            case "utf8" -> b.key(KeyEncoding.UTF8);
            case "whsec-base64" -> b.key(KeyEncoding.WHSEC_BASE64);
            default -> throw new IllegalArgumentException(
                    "'customScheme.secretEncoding' must be one of [utf8, whsec-base64].");
        }
        b.dedupeHeaders(headers(node, "dedupeHeader", false).toArray(String[]::new));
        b.dedupeBodyField(text(node, "dedupeField", null));
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'customScheme' is not a usable scheme: " + e.getMessage() + ".");
        }
    }

    private static void timestamp(JsonNode node, SignatureScheme.Builder b) {
        String source = text(node, "timestampSource", "none");
        int tolerance = tolerance(node);
        TimestampUnit unit = choice(node, "timestampUnit", TimestampUnit.class, TimestampUnit.SECONDS);
        switch (source) {
            case "none" -> {
                for (String field : List.of("timestampHeader", "timestampParam", "timestampField", "timestampUnit",
                        "toleranceSeconds")) {
                    if (node.has(field)) {
                        throw new IllegalArgumentException("'customScheme." + field
                                + "' needs a 'timestampSource' (header, param or body).");
                    }
                }
            }
            case "header" -> b.timestampFromHeader(tolerance, headers(node, "timestampHeader", true)
                    .toArray(String[]::new)).timestampUnit(unit);
            case "param" -> b.timestampFromParam(required(text(node, "timestampParam", null), "timestampParam"),
                    tolerance).timestampUnit(unit);
            case "body" -> b.timestampFromBody(required(text(node, "timestampField", null), "timestampField"), unit,
                    tolerance);
            default -> throw new IllegalArgumentException(
                    "'customScheme.timestampSource' must be one of [none, header, param, body].");
        }
    }

    private static int tolerance(JsonNode node) {
        JsonNode value = node.get("toleranceSeconds");
        if (value == null) {
            return 300;
        }
        if (!value.isIntegralNumber() || !value.canConvertToInt() || value.intValue() < 1
                || value.intValue() > SignatureScheme.MAX_TOLERANCE_SECONDS) {
            throw new IllegalArgumentException("'customScheme.toleranceSeconds' must be an integer from 1 to "
                    + SignatureScheme.MAX_TOLERANCE_SECONDS + ".");
        }
        return value.intValue();
    }

    private static <E extends Enum<E>> E choice(JsonNode node, String field, Class<E> type, E fallback) {
        String value = text(node, field, null);
        if (value == null) {
            return fallback;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().toLowerCase(Locale.ROOT).equals(value)) {
                return e;
            }
        }
        List<String> names = new ArrayList<>();
        for (E e : type.getEnumConstants()) {
            names.add(e.name().toLowerCase(Locale.ROOT));
        }
        throw new IllegalArgumentException("'customScheme." + field + "' must be one of " + names + ".");
    }

    private static String text(JsonNode node, String field, String fallback) {
        JsonNode value = node.get(field);
        if (value == null) {
            return fallback;
        }
        if (!value.isTextual() || value.textValue().length() > MAX_TEXT) {
            throw new IllegalArgumentException("'customScheme." + field + "' must be a string of at most " + MAX_TEXT
                    + " characters.");
        }
        return value.textValue();
    }

    private static String required(String value, String field) {
        if (value == null || value.isEmpty()) {
            throw new IllegalArgumentException("'customScheme." + field + "' is required with this layout or source.");
        }
        return value;
    }

    /** A header name or a list of names (aliases, first present wins). */
    private static List<String> headers(JsonNode node, String field, boolean required) {
        JsonNode value = node.get(field);
        if (value == null) {
            if (required) {
                throw new IllegalArgumentException("'customScheme." + field + "' is required.");
            }
            return List.of();
        }
        List<String> names = new ArrayList<>();
        if (value.isTextual()) {
            names.add(value.textValue());
        } else if (value.isArray() && !value.isEmpty() && value.size() <= 4) {
            value.forEach(v -> names.add(v.isTextual() ? v.textValue() : ""));
        }
        if (names.isEmpty() || !names.stream().allMatch(CustomSchemes::isHeaderName)) {
            throw new IllegalArgumentException("'customScheme." + field + "' must be a header name or 1 to 4 of them"
                    + " (letters, digits, '-' and '_', at most " + MAX_NAME + " characters).");
        }
        return names;
    }

    private static boolean isHeaderName(String name) {
        return SignatureText.isToken(name, MAX_NAME);
    }
}
