package io.webhookbuffer.controlplane;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.webhookbuffer.tenant.Tenant;
import io.webhookbuffer.verify.CustomSchemes;
import io.webhookbuffer.usage.BillingPeriod;
import io.webhookbuffer.verify.Providers;
import io.webhookbuffer.verify.SenderRetries;
import io.webhookbuffer.verify.SignatureScheme;

/**
 * The body of {@code PUT /control/tenants/{id}}, validated. Omitted fields keep their stored value (or take the
 * default for a new tenant), so {@code {"active": false}} deactivates without resending secrets. Unknown fields are
 * refused so a typo is not silently ignored. Every message names the field, the bound and what was sent — never a
 * secret's value. {@code originToken} and {@code originSigningSecret} are the tenant's own origin's credentials
 * (write-only, like the secrets).
 */
record TenantCommand(Boolean active, String provider, List<String> secrets, Integer rateLimit,
        Integer rateWindowSeconds, boolean maxBodyBytesGiven, Integer maxBodyBytes, boolean originUrlGiven,
        String originUrl, boolean deliveryRateGiven, Integer deliveryRate, boolean publicUrlGiven, String publicUrl,
        boolean toleranceGiven, Integer toleranceSeconds, boolean customSchemeGiven, String customScheme,
        boolean billingAnchorGiven, OffsetDateTime billingAnchor, String billingCadence, boolean originTokenGiven,
        String originToken, boolean originSigningSecretGiven, String originSigningSecret,
        boolean maxQueuedBytesGiven, Long maxQueuedBytes, boolean senderRetriesGiven, String senderRetries,
        Boolean trustTraceContext) {

    static final int MAX_SECRET_LENGTH = 512;
    static final int MAX_RATE_LIMIT = 1_000_000;
    static final int MAX_WINDOW_SECONDS = 3600;
    static final int MAX_DELIVERY_RATE = 1_000_000;
    /** 1 TiB: far above any disk one tenant should fill; a bound so a typo cannot mean "unlimited" by overflow. */
    static final long MAX_QUEUED_BYTES = 1L << 40;
    private static final Set<String> FIELDS = Set.of("active", "provider", "secrets", "rateLimit", "rateWindowSeconds",
            "maxBodyBytes", "originUrl", "deliveryRate", "publicUrl", "toleranceSeconds", "customScheme",
            "billingAnchor", "billingCadence", "originToken", "originSigningSecret", "maxQueuedBytes",
            "senderRetries", "trustTraceContext");
    static final int MAX_URL_LENGTH = 2048;

    static TenantCommand parse(ObjectMapper json, byte[] body, long maxBodyCeiling) {
        JsonNode root;
        try {
            root = body.length == 0 ? null : json.readTree(body);
        } catch (IOException e) {
            throw ProblemException.badRequest("The body is not valid JSON.");
        }
        if (root == null || !root.isObject()) {
            throw ProblemException.badRequest("The body must be a JSON object.");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext();) {
            String name = it.next().getKey();
            if (!FIELDS.contains(name)) {
                throw ProblemException.badRequest("Unknown field '" + name + "'; known fields are " + FIELDS + ".");
            }
        }
        return new TenantCommand(bool(root, "active"), provider(root), secrets(root),
                integer(root, "rateLimit", 1, MAX_RATE_LIMIT), integer(root, "rateWindowSeconds", 1, MAX_WINDOW_SECONDS),
                root.has("maxBodyBytes"), nullableInteger(root, "maxBodyBytes", 1, maxBodyCeiling),
                root.has("originUrl"), originUrl(root),
                root.has("deliveryRate"), nullableInteger(root, "deliveryRate", 1, MAX_DELIVERY_RATE),
                root.has("publicUrl"), publicUrl(root),
                root.has("toleranceSeconds"), nullableInteger(root, "toleranceSeconds", 1,
                        SignatureScheme.MAX_TOLERANCE_SECONDS),
                root.has("customScheme"), customScheme(root),
                root.has("billingAnchor"), billingAnchor(root), billingCadence(root),
                root.has("originToken"), credential(root, "originToken"),
                root.has("originSigningSecret"), credential(root, "originSigningSecret"),
                root.has("maxQueuedBytes"), nullableLong(root, "maxQueuedBytes", 1, MAX_QUEUED_BYTES),
                root.has("senderRetries"), senderRetries(root), bool(root, "trustTraceContext"));
    }

    /** What the sender does after a refusal: {@code never}, {@code briefly} or {@code long}; null for its provider's. */
    private static String senderRetries(JsonNode root) {
        JsonNode node = root.get("senderRetries");
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual() || SenderRetries.of(node.textValue()) == null) {
            throw ProblemException.badRequest("'senderRetries' must be \"never\", \"briefly\" or \"long\" (what the sender"
                    + " does after a refusal), or null for its provider's, was " + node.toString() + ".");
        }
        return node.textValue();
    }

    /** A credential for the tenant's own origin: a non-blank string, or null to remove it. Never echoed. */
    private static String credential(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual() || node.textValue().isBlank() || node.textValue().length() > MAX_SECRET_LENGTH) {
            throw ProblemException.badRequest("'" + field + "' must be a non-blank string of at most "
                    + MAX_SECRET_LENGTH + " characters, or null to remove it.");
        }
        return node.textValue();
    }

    /**
     * The URL a provider signs (Square's notification URL, Twilio's webhook URL): an absolute http(s) URL, query
     * allowed, kept byte for byte (no normalising: the provider signs it exactly as it was configured there).
     */
    private static String publicUrl(JsonNode root) {
        JsonNode node = root.get("publicUrl");
        if (node == null || node.isNull()) {
            return null;
        }
        String problem = "'publicUrl' must be the absolute http or https URL configured at the provider (query"
                + " allowed, no fragment, at most " + MAX_URL_LENGTH + " characters), or null.";
        if (!node.isTextual() || node.textValue().length() > MAX_URL_LENGTH) {
            throw ProblemException.badRequest(problem);
        }
        try {
            URI uri = new URI(node.textValue());
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getRawFragment() != null) {
                throw ProblemException.badRequest(problem);
            }
        } catch (URISyntaxException e) {
            throw ProblemException.badRequest(problem);
        }
        return node.textValue();
    }

    /** The custom scheme as validated JSON text (stored as is), or null. */
    private static String customScheme(JsonNode root) {
        JsonNode node = root.get("customScheme");
        if (node == null || node.isNull()) {
            return null;
        }
        try {
            CustomSchemes.parse(node);
        } catch (IllegalArgumentException e) {
            throw ProblemException.badRequest(e.getMessage());
        }
        return node.toString();
    }

    /** An ISO-8601 instant on a whole hour (usage is counted per hour), or null for calendar periods. */
    private static OffsetDateTime billingAnchor(JsonNode root) {
        JsonNode node = root.get("billingAnchor");
        if (node == null || node.isNull()) {
            return null;
        }
        String problem = "'billingAnchor' must be an ISO-8601 time on a whole hour, e.g. 2026-07-01T00:00:00Z, or null.";
        if (!node.isTextual()) {
            throw ProblemException.badRequest(problem);
        }
        try {
            OffsetDateTime anchor = OffsetDateTime.parse(node.textValue()).withOffsetSameInstant(ZoneOffset.UTC);
            if (!anchor.truncatedTo(ChronoUnit.HOURS).equals(anchor)) {
                throw ProblemException.badRequest(problem);
            }
            return anchor;
        } catch (DateTimeParseException e) {
            throw ProblemException.badRequest(problem);
        }
    }

    private static String billingCadence(JsonNode root) {
        JsonNode node = root.get("billingCadence");
        if (node == null) {
            return null;
        }
        if (!node.isTextual() || !BillingPeriod.CADENCES.contains(node.textValue())) {
            throw ProblemException.badRequest("'billingCadence' must be one of " + BillingPeriod.CADENCES + ".");
        }
        return node.textValue();
    }

    /**
     * An absolute http(s) URL without user info, query or fragment (batches go to {url}/internal/webhooks/batch), or
     * null. Whether this origin is allowed is {@link TenantCommandResource}'s question ({@code OriginTrust}).
     */
    private static String originUrl(JsonNode root) {
        JsonNode node = root.get("originUrl");
        if (node == null || node.isNull()) {
            return null;
        }
        String problem = "'originUrl' must be an absolute http or https URL without user info, query or fragment, or"
                + " null.";
        if (!node.isTextual() || node.textValue().length() > 2048) {
            throw ProblemException.badRequest(problem);
        }
        try {
            URI uri = new URI(node.textValue());
            if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                    || uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null) {
                throw ProblemException.badRequest(problem);
            }
        } catch (URISyntaxException e) {
            throw ProblemException.badRequest(problem);
        }
        return node.textValue().replaceAll("/+$", "");
    }

    private static Boolean bool(JsonNode root, String field) {
        JsonNode node = root.get(field);
        if (node == null) {
            return null;
        }
        if (!node.isBoolean()) {
            throw ProblemException.badRequest("'" + field + "' must be true or false.");
        }
        return node.booleanValue();
    }

    private static String provider(JsonNode root) {
        JsonNode node = root.get("provider");
        if (node == null) {
            return null;
        }
        if (!node.isTextual() || !Providers.isKnown(node.textValue())) {
            throw ProblemException.badRequest("'provider' must be one of " + Providers.names() + ".");
        }
        return node.textValue();
    }

    private static List<String> secrets(JsonNode root) {
        JsonNode node = root.get("secrets");
        if (node == null) {
            return null;
        }
        if (!node.isArray() || node.isEmpty() || node.size() > Tenant.MAX_ACTIVE_SECRETS) {
            throw ProblemException.badRequest("'secrets' must be an array of 1 to " + Tenant.MAX_ACTIVE_SECRETS
                    + " strings, current secret first.");
        }
        List<String> secrets = new ArrayList<>(node.size());
        for (JsonNode secret : node) {
            if (!secret.isTextual() || secret.textValue().isBlank() || secret.textValue().length() > MAX_SECRET_LENGTH) {
                throw ProblemException.badRequest("Each secret must be a non-blank string of at most "
                        + MAX_SECRET_LENGTH + " characters (secret #" + (secrets.size() + 1) + " is not).");
            }
            secrets.add(secret.textValue());
        }
        return List.copyOf(secrets);
    }

    private static Integer integer(JsonNode root, String field, long min, long max) {
        JsonNode node = root.get(field);
        if (node == null) {
            return null;
        }
        Integer value = nullableInteger(root, field, min, max);
        if (value == null) {
            throw ProblemException.badRequest("'" + field + "' must be an integer from " + min + " to " + max + ".");
        }
        return value;
    }

    private static Integer nullableInteger(JsonNode root, String field, long min, long max) {
        Long value = nullableLong(root, field, min, max);
        return value == null ? null : (int) (long) value;
    }

    private static Long nullableLong(JsonNode root, String field, long min, long max) {
        JsonNode node = root.get(field);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.canConvertToLong() || !node.isIntegralNumber() || node.longValue() < min || node.longValue() > max) {
            throw ProblemException.badRequest("'" + field + "' must be an integer from " + min + " to " + max
                    + ", was " + node.toString() + ".");
        }
        return node.longValue();
    }
}
