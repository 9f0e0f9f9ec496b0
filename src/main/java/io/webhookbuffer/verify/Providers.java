package io.webhookbuffer.verify;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.webhookbuffer.verify.SignatureScheme.Algorithm;
import io.webhookbuffer.verify.SignatureScheme.Encoding;
import io.webhookbuffer.verify.SignatureScheme.KeyEncoding;
import io.webhookbuffer.verify.SignatureScheme.TimestampUnit;

/**
 * The signature schemes this build ships, by the {@code provider} name used in tenant config. Most are presets of
 * {@link SignatureScheme}; Twilio (URL plus sorted form parameters), GitLab's token and Twitch (an RFC 3339
 * timestamp) have their own code; Slack, Zoom and Twitch add a signed handshake, and Meta, X and Dropbox a GET check
 * ({@link QueryHandshake}). {@code custom} is a tenant's own {@link SignatureScheme}. Adding a provider is one entry
 * here, its vectors ({@code src/test/resources/signature-vectors/}) and a row in docs/providers.md.
 */
public final class Providers {

    public static final String GENERIC = "generic";
    public static final String STRIPE = "stripe";
    public static final String GITHUB = "github";
    public static final String SHOPIFY = "shopify";
    public static final String SLACK = "slack";
    public static final String STANDARD_WEBHOOKS = "standard-webhooks";
    public static final String PADDLE = "paddle";
    public static final String SQUARE = "square";
    public static final String LINEAR = "linear";
    public static final String ZOOM = "zoom";
    public static final String INTERCOM = "intercom";
    public static final String GITLAB = "gitlab";
    public static final String TWILIO = "twilio";
    // Handshake presets (issue 20 item 1, part 2): a GET endpoint check (QueryHandshake) or a signed one.
    public static final String META = "meta";
    public static final String X = "x";
    public static final String DROPBOX = "dropbox";
    public static final String TWITCH = "twitch";
    /** The tenant's own scheme ({@code customScheme} in the tenant command). */
    public static final String CUSTOM = "custom";

    private static final int DEFAULT_TOLERANCE = 300;
    /** Paddle's own SDK allows 5 s; a tenant may widen it with {@code toleranceSeconds}. */
    private static final int PADDLE_TOLERANCE = 5;
    /** Linear's documentation asks for the webhookTimestamp to be within a minute. */
    private static final int LINEAR_TOLERANCE = 60;
    private static final int MAX_CACHED = 10_000;
    private static final String META_SIGNATURE = "X-Hub-Signature-256";
    private static final String X_SIGNATURE = "x-twitter-webhooks-signature";
    private static final Map<String, QueryHandshake> QUERY_HANDSHAKES = Map.of(
            META, new QueryHandshake(QueryHandshake.Kind.META), X, new QueryHandshake(QueryHandshake.Kind.X),
            DROPBOX, new QueryHandshake(QueryHandshake.Kind.DROPBOX));

    private static final Map<String, SignatureScheme> SCHEMES = schemes();
    private static final Map<String, SignatureVerifier> FIXED = fixed();
    private static final List<String> NAMES = names(GENERIC, STRIPE, GITHUB, SHOPIFY, SLACK, STANDARD_WEBHOOKS, PADDLE,
            SQUARE, LINEAR, ZOOM, INTERCOM, GITLAB, TWILIO,
            META, X, DROPBOX, TWITCH, // handshake presets
            CUSTOM);
    /** Verifiers bound to a tenant's settings (URL, tolerance, custom scheme), built once per distinct setting. */
    private static final Map<Settings, SignatureVerifier> BOUND = new ConcurrentHashMap<>();

    private Providers() {
    }

    private static Map<String, SignatureScheme> schemes() {
        Map<String, SignatureScheme> m = new LinkedHashMap<>();
        m.put(STRIPE, SignatureScheme.builder("Stripe-Signature").params(",", "v1")
                .timestampFromParam("t", DEFAULT_TOLERANCE).signedContent("{ts}.{body}").dedupeBodyField("id").build());
        m.put(GITHUB, SignatureScheme.builder("X-Hub-Signature-256").prefix("sha256=")
                .dedupeHeaders("X-GitHub-Delivery").build());
        m.put(SHOPIFY, SignatureScheme.builder("X-Shopify-Hmac-Sha256").encoding(Encoding.BASE64)
                .dedupeHeaders("X-Shopify-Webhook-Id").build());
        m.put(SLACK, SignatureScheme.builder("X-Slack-Signature").prefix("v0=")
                .timestampFromHeader(DEFAULT_TOLERANCE, "X-Slack-Request-Timestamp").signedContent("v0:{ts}:{body}")
                .dedupeBodyField("event_id").build());
        m.put(STANDARD_WEBHOOKS, SignatureScheme.builder("webhook-signature", "svix-signature")
                .encoding(Encoding.BASE64).prefix("v1,").list(" ")
                .timestampFromHeader(DEFAULT_TOLERANCE, "webhook-timestamp", "svix-timestamp")
                .idHeaders("webhook-id", "svix-id").signedContent("{id}.{ts}.{body}").key(KeyEncoding.WHSEC_BASE64)
                .dedupeHeaders("webhook-id", "svix-id").build());
        m.put(PADDLE, SignatureScheme.builder("Paddle-Signature").params(";", "h1")
                .timestampFromParam("ts", PADDLE_TOLERANCE).signedContent("{ts}:{body}").dedupeBodyField("event_id")
                .build());
        m.put(SQUARE, SignatureScheme.builder("x-square-hmacsha256-signature").encoding(Encoding.BASE64)
                .signedContent("{url}{body}").dedupeBodyField("event_id").build());
        m.put(LINEAR, SignatureScheme.builder("Linear-Signature")
                .timestampFromBody("webhookTimestamp", TimestampUnit.MILLISECONDS, LINEAR_TOLERANCE)
                .dedupeHeaders("Linear-Delivery").build());
        m.put(ZOOM, SignatureScheme.builder("x-zm-signature").prefix("v0=")
                .timestampFromHeader(DEFAULT_TOLERANCE, "x-zm-request-timestamp").signedContent("v0:{ts}:{body}")
                .build());
        m.put(INTERCOM, SignatureScheme.builder("X-Hub-Signature").algorithm(Algorithm.SHA1).prefix("sha1=")
                .dedupeBodyField("id").build());
        // Handshake presets: none sends a delivery id, so the body hash is the key.
        m.put(META, SignatureScheme.builder(META_SIGNATURE).prefix("sha256=").build());
        m.put(X, SignatureScheme.builder(X_SIGNATURE).encoding(Encoding.BASE64).prefix("sha256=").build());
        m.put(DROPBOX, SignatureScheme.builder("X-Dropbox-Signature").build());
        return Collections.unmodifiableMap(m);
    }

    private static Map<String, SignatureVerifier> fixed() {
        Map<String, SignatureVerifier> m = new LinkedHashMap<>();
        m.put(GENERIC, new GenericHmacVerifier());
        m.put(GITLAB, new GitLabTokenVerifier());
        m.put(TWITCH, new TwitchVerifier(TwitchVerifier.DEFAULT_TOLERANCE));
        SCHEMES.forEach((name, scheme) -> {
            if (!scheme.signsUrl()) {
                m.put(name, decorate(name, new SchemeVerifier(scheme, null)));
            }
        });
        return Collections.unmodifiableMap(m);
    }

    private static SignatureVerifier decorate(String provider, SignatureVerifier verifier) {
        return switch (provider) {
            case SLACK -> new HandshakeVerifier(verifier, HandshakeVerifier.Kind.SLACK);
            case ZOOM -> new HandshakeVerifier(verifier, HandshakeVerifier.Kind.ZOOM);
            case X -> new JsonObjectOnlyVerifier(verifier, List.of(X_SIGNATURE));
            default -> verifier;
        };
    }

    /** Every provider name a tenant may use, in the order of docs/providers.md. */
    public static List<String> names() {
        return NAMES;
    }

    public static boolean isKnown(String provider) {
        return provider != null && NAMES.contains(provider);
    }

    /** The declarative preset behind a provider, or null for those with their own code (generic, gitlab, twilio, twitch). */
    public static SignatureScheme preset(String provider) {
        return provider == null ? null : SCHEMES.get(provider);
    }

    /** Whether the provider signs the tenant's public URL (which the tenant config must then carry). */
    public static boolean needsPublicUrl(String provider, SignatureScheme custom) {
        SignatureScheme scheme = CUSTOM.equals(provider) ? custom : preset(provider);
        return TWILIO.equals(provider) || (scheme != null && scheme.signsUrl());
    }

    /** Whether the provider signs a timestamp (so a tolerance applies and may be overridden per tenant). */
    public static boolean signsTimestamp(String provider, SignatureScheme custom) {
        SignatureScheme scheme = CUSTOM.equals(provider) ? custom : preset(provider);
        return TWITCH.equals(provider) || (scheme != null && scheme.signsTimestamp());
    }

    /** The verifier for a provider that needs no tenant settings, or null (callers refuse, never skip verification). */
    public static SignatureVerifier verifier(String provider) {
        return verifier(provider, null, null, null);
    }

    /**
     * The verifier for a tenant's settings, or null when the name is unknown or the settings do not make a usable
     * scheme (a URL-signing provider without {@code publicUrl}, {@code custom} without a scheme). Failure policy:
     * null means the tenant accepts nothing; there is no "unverified" mode.
     *
     * @param toleranceSeconds the tenant's override of the scheme's tolerance, or null for the scheme's own
     */
    public static SignatureVerifier verifier(String provider, String publicUrl, Integer toleranceSeconds,
            SignatureScheme custom) {
        if (provider == null) {
            return null;
        }
        boolean needsUrl = needsPublicUrl(provider, custom);
        if (!CUSTOM.equals(provider) && !needsUrl && toleranceSeconds == null) {
            return FIXED.get(provider);
        }
        Settings settings = new Settings(provider, needsUrl ? publicUrl : null, toleranceSeconds,
                CUSTOM.equals(provider) ? custom : null);
        SignatureVerifier cached = BOUND.get(settings);
        if (cached != null) {
            return cached;
        }
        SignatureVerifier built = build(settings);
        if (built != null) {
            if (BOUND.size() >= MAX_CACHED) {
                BOUND.clear();
            }
            BOUND.put(settings, built);
        }
        return built;
    }

    /**
     * Why these tenant settings cannot be used, or null when they can; the message names the field and never a
     * secret. The control plane refuses the command with it.
     */
    public static String problem(String provider, String publicUrl, Integer toleranceSeconds, SignatureScheme custom,
            List<String> secrets) {
        if (!isKnown(provider)) {
            return "'provider' must be one of " + NAMES + ".";
        }
        if (CUSTOM.equals(provider) && custom == null) {
            return "The 'custom' provider needs 'customScheme'.";
        }
        if (!CUSTOM.equals(provider) && custom != null) {
            return "'customScheme' is only used with \"provider\": \"custom\".";
        }
        if (needsPublicUrl(provider, custom) && (publicUrl == null || publicUrl.isEmpty())) {
            return "'" + provider + "' signs the URL it posts to: the tenant needs 'publicUrl', exactly as configured"
                    + " at the provider.";
        }
        if (toleranceSeconds != null && !signsTimestamp(provider, custom)) {
            return "'toleranceSeconds' applies only to schemes that sign a timestamp; '" + provider + "' does not.";
        }
        SignatureScheme scheme = CUSTOM.equals(provider) ? custom : preset(provider);
        if (scheme != null && scheme.key() == KeyEncoding.WHSEC_BASE64 && secrets != null) {
            for (int i = 0; i < secrets.size(); i++) {
                byte[] key = SchemeVerifier.whsecKey(secrets.get(i));
                if (key == null || key.length == 0) {
                    return "Secret #" + (i + 1) + " is not a Standard Webhooks secret ('whsec_' followed by base64).";
                }
            }
        }
        return null;
    }

    private static SignatureVerifier build(Settings s) {
        try {
            if (TWILIO.equals(s.provider())) {
                return new TwilioVerifier(s.publicUrl());
            }
            if (TWITCH.equals(s.provider())) {
                return new TwitchVerifier(s.toleranceSeconds());
            }
            SignatureScheme scheme = CUSTOM.equals(s.provider()) ? s.custom() : preset(s.provider());
            if (scheme == null) {
                return FIXED.get(s.provider());
            }
            if (s.toleranceSeconds() != null && scheme.signsTimestamp()) {
                scheme = scheme.withTolerance(s.toleranceSeconds());
            }
            return decorate(s.provider(), new SchemeVerifier(scheme, s.publicUrl()));
        } catch (IllegalArgumentException e) {
            // Failure policy: settings that make no scheme (a stored row that bypassed the command's checks) verify
            // nothing, so the tenant fails closed.
            return null;
        }
    }

    /**
     * The provider's endpoint check by GET (Meta, X, Dropbox), or null when it has none: its GET is then a 405 as
     * for every other provider.
     */
    public static QueryHandshake queryHandshake(String provider) {
        return provider == null ? null : QUERY_HANDSHAKES.get(provider);
    }

    private static List<String> names(String... names) {
        return Collections.unmodifiableList(new ArrayList<>(List.of(names)));
    }

    private record Settings(String provider, String publicUrl, Integer toleranceSeconds, SignatureScheme custom) {
    }
}
