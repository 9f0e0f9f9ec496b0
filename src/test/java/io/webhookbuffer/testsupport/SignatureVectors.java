package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import io.webhookbuffer.verify.VerificationFailure;

/**
 * The golden vectors in {@code src/test/resources/signature-vectors/{provider}.json} (written by
 * {@code generate.py} there, which computes the signatures independently of the Java code).
 */
public final class SignatureVectors {

    /** Every provider with a vector file; the file name is the provider name. */
    public static final List<String> PROVIDERS = List.of("generic", "stripe", "github", "shopify", "slack",
            "standard-webhooks", "paddle", "square", "linear", "zoom", "intercom", "gitlab", "twilio",
            // Common HMAC senders (issue 20).
            "typeform", "calendly", "hubspot", "lemon-squeezy", "woocommerce", "razorpay", "mux", "bitbucket", "sentry",
            "pagerduty", "vercel", "clerk", "resend", "gitea", "coinbase-commerce", "workos", "webflow", "circleci",
            "clickup", "trello", "zendesk",
            // Public-key and body-signed (issue 20).
            "sendgrid", "discord", "mailgun",
            // Handshake presets (issue 20).
            "meta", "x", "dropbox", "twitch", "asana", "xero");

    /**
     * The providers whose event id is outside what they sign (docs/providers.md, the presets table: "bound"); every
     * other provider's id comes from the signed body or a signed header.
     */
    public static final Set<String> UNSIGNED_IDS = Set.of("generic", "github", "shopify", "linear", "gitlab", "twilio",
            // Common HMAC senders (issue 20).
            "woocommerce", "razorpay", "bitbucket", "sentry", "gitea", "zendesk");

    /**
     * The presets whose retry changes a signed body field (docs/providers.md, "What a provider's retry changes"): the
     * field the binding of an unsigned id leaves out.
     */
    public static final Map<String, String> VOLATILE_FIELDS = Map.of("linear", "webhookTimestamp");

    private SignatureVectors() {
    }

    /**
     * One vector.
     *
     * @param receivedAt the receive time the vector was made for (epoch ms); null when the scheme signs no time
     * @param dedupeId the provider's id an accepted vector carries; null when the body hash is the key
     * @param handshake the answer's fields for a handshake request; null for an event
     */
    public record Vector(String provider, String name, String description, List<String> secrets, String publicUrl,
            Long receivedAt, Map<String, String> headers, byte[] body, VerificationFailure expected, String dedupeId,
            Map<String, String> handshake) {

        /** Header lookup as the HTTP layer does it: case-insensitive, null when absent. */
        public Function<String, String> headerLookup() {
            Map<String, String> byName = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
            byName.putAll(headers);
            return byName::get;
        }

        public long receivedAtOrNow() {
            return receivedAt == null ? System.currentTimeMillis() : receivedAt;
        }

        @Override
        public String toString() {
            return provider + "/" + name;
        }
    }

    public static List<Vector> all() {
        List<Vector> out = new ArrayList<>();
        for (String provider : PROVIDERS) {
            out.addAll(of(provider));
        }
        return out;
    }

    /**
     * The vectors made by the providers' own SDKs ({@code signature-vectors/sdk/make.js}), one file per SDK; each
     * vector names its provider.
     */
    public static final List<String> SDK_FILES = List.of("sdk-stripe", "sdk-github", "sdk-standard-webhooks",
            "sdk-svix", "sdk-clerk", "sdk-resend", "sdk-twilio");

    public static List<Vector> sdk() {
        List<Vector> out = new ArrayList<>();
        for (String file : SDK_FILES) {
            out.addAll(read("/signature-vectors/sdk/" + file + ".json", null));
        }
        return out;
    }

    public static List<Vector> of(String provider) {
        return read("/signature-vectors/" + provider + ".json", provider);
    }

    /** The vectors of one file; {@code provider} null takes each vector's own {@code provider} field. */
    private static List<Vector> read(String resource, String provider) {
        JsonNode root;
        try (InputStream in = SignatureVectors.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is not on the test classpath");
            }
            root = new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Vector> vectors = new ArrayList<>();
        for (JsonNode node : root) {
            List<String> secrets = new ArrayList<>();
            node.get("secrets").forEach(s -> secrets.add(s.textValue()));
            Map<String, String> headers = new LinkedHashMap<>();
            node.get("headers").fields().forEachRemaining(e -> headers.put(e.getKey(), e.getValue().textValue()));
            byte[] body = node.has("bodyBase64") ? Base64.getDecoder().decode(node.get("bodyBase64").textValue())
                    : node.get("bodyUtf8").textValue().getBytes(StandardCharsets.UTF_8);
            Map<String, String> handshake = null;
            if (node.has("handshake")) {
                handshake = new LinkedHashMap<>();
                Map<String, String> h = handshake;
                node.get("handshake").fields().forEachRemaining(e -> h.put(e.getKey(), e.getValue().asText()));
            }
            vectors.add(new Vector(provider != null ? provider : node.get("provider").textValue(),
                    node.get("name").textValue(), node.get("description").textValue(),
                    secrets, text(node, "publicUrl"), node.has("receivedAt") ? node.get("receivedAt").longValue() : null,
                    headers, body, VerificationFailure.valueOf(node.get("expected").textValue()),
                    text(node, "dedupeId"), handshake));
        }
        return vectors;
    }

    /**
     * One GET endpoint check ({@code query-handshakes.json}): the raw query as sent, and either the answer
     * ({@code expected} ANSWER, with its content type and body) or the refusal ({@code MALFORMED}, {@code BAD_TOKEN}).
     */
    public record QueryVector(String provider, String name, String description, List<String> secrets, String query,
            String expected, String contentType, String body) {

        @Override
        public String toString() {
            return provider + "/" + name;
        }
    }

    public static List<QueryVector> queryHandshakes() {
        JsonNode root;
        try (InputStream in = SignatureVectors.class.getResourceAsStream("/signature-vectors/query-handshakes.json")) {
            root = new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<QueryVector> vectors = new ArrayList<>();
        for (JsonNode node : root) {
            List<String> secrets = new ArrayList<>();
            node.get("secrets").forEach(s -> secrets.add(s.textValue()));
            vectors.add(new QueryVector(text(node, "provider"), text(node, "name"), text(node, "description"), secrets,
                    text(node, "query"), text(node, "expected"), text(node, "contentType"), text(node, "body")));
        }
        return vectors;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node.get(field);
        return value == null || value.isNull() ? null : value.textValue();
    }
}
