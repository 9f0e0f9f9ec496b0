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
 * timestamp) have their own code; Slack, Zoom, Twitch and Xero add a signed handshake, Meta, X and Dropbox a GET check
 * ({@link QueryHandshake}), and Asana a secret handshake ({@link AsanaHandshake}). {@code custom} is a tenant's own
 * {@link SignatureScheme}. Adding a provider is one entry here, its vectors ({@code src/test/resources/signature-vectors/})
 * and a row in docs/providers.md.
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
    // Common HMAC senders (issue 20).
    public static final String TYPEFORM = "typeform";
    public static final String CALENDLY = "calendly";
    public static final String HUBSPOT = "hubspot";
    public static final String LEMON_SQUEEZY = "lemon-squeezy";
    public static final String WOOCOMMERCE = "woocommerce";
    public static final String RAZORPAY = "razorpay";
    public static final String MUX = "mux";
    public static final String BITBUCKET = "bitbucket";
    public static final String SENTRY = "sentry";
    public static final String PAGERDUTY = "pagerduty";
    public static final String VERCEL = "vercel";
    public static final String CLERK = "clerk";
    public static final String RESEND = "resend";
    public static final String GITEA = "gitea";
    public static final String COINBASE_COMMERCE = "coinbase-commerce";
    public static final String WORKOS = "workos";
    public static final String WEBFLOW = "webflow";
    public static final String CIRCLECI = "circleci";
    public static final String CLICKUP = "clickup";
    public static final String TRELLO = "trello";
    public static final String ZENDESK = "zendesk";
    // Public-key and body-signed presets (issue 20 item 1): PublicKeyVerifier, MailgunVerifier.
    public static final String SENDGRID = "sendgrid";
    public static final String DISCORD = "discord";
    public static final String MAILGUN = "mailgun";
    /** The presets of that group: each signs a timestamp, so a tenant's tolerance applies. */
    private static final List<String> SIGNED_TIMESTAMP_OWN_CODE = List.of(SENDGRID, DISCORD, MAILGUN);
    // Handshake presets (issue 20 item 1, part 2): a GET endpoint check (QueryHandshake) or a signed one.
    public static final String META = "meta";
    public static final String X = "x";
    public static final String DROPBOX = "dropbox";
    public static final String TWITCH = "twitch";
    /** Asana: its secret comes in a handshake ({@code X-Hook-Secret}) that an operator's window admits. */
    public static final String ASANA = "asana";
    /** Xero: intent-to-receive, and every answer it reads (200, 401) has an empty body. */
    public static final String XERO = "xero";
    /** The tenant's own scheme ({@code customScheme} in the tenant command). */
    public static final String CUSTOM = "custom";

    private static final int DEFAULT_TOLERANCE = 300;
    /** Paddle's own SDK allows 5 s; a tenant may widen it with {@code toleranceSeconds}. */
    private static final int PADDLE_TOLERANCE = 5;
    /** Linear's documentation asks for the webhookTimestamp to be within a minute. */
    private static final int LINEAR_TOLERANCE = 60;
    /** WorkOS's SDKs allow 180 s. */
    private static final int WORKOS_TOLERANCE = 180;
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
            // Common HMAC senders (issue 20).
            TYPEFORM, CALENDLY, HUBSPOT, LEMON_SQUEEZY, WOOCOMMERCE, RAZORPAY, MUX, BITBUCKET, SENTRY, PAGERDUTY, VERCEL,
            CLERK, RESEND, GITEA, COINBASE_COMMERCE, WORKOS, WEBFLOW, CIRCLECI, CLICKUP, TRELLO,
            ZENDESK,
            // Public-key and body-signed (issue 20).
            SENDGRID, DISCORD, MAILGUN,
            // Handshake presets (issue 20).
            META, X, DROPBOX, TWITCH, ASANA, XERO,
            CUSTOM);
    /**
     * What each provider does after a refusal, from its documentation (docs/providers.md, "What a sender does after a
     * refusal", with the sources). Every preset is listed; {@link SenderRetries#NEVER} where the provider does not
     * resend, resends only within seconds, or where its documentation says nothing (the cautious default, as for
     * {@code generic} and {@code custom}; a tenant's {@code senderRetries} overrides it).
     */
    private static final Map<String, SenderRetries> RETRIES = Map.ofEntries(
            // Never resent by the provider, or within seconds only (docs/providers.md says which).
            Map.entry(GITHUB, SenderRetries.NEVER), Map.entry(GITLAB, SenderRetries.NEVER),
            Map.entry(BITBUCKET, SenderRetries.NEVER), Map.entry(WOOCOMMERCE, SenderRetries.NEVER),
            Map.entry(TWILIO, SenderRetries.NEVER), Map.entry(X, SenderRetries.NEVER),
            // Not documented (or not found in the provider's docs): the cautious default.
            Map.entry(INTERCOM, SenderRetries.NEVER), Map.entry(TYPEFORM, SenderRetries.NEVER),
            Map.entry(SENTRY, SenderRetries.NEVER), Map.entry(VERCEL, SenderRetries.NEVER),
            Map.entry(GITEA, SenderRetries.NEVER), Map.entry(CIRCLECI, SenderRetries.NEVER),
            Map.entry(TRELLO, SenderRetries.NEVER), Map.entry(ZENDESK, SenderRetries.NEVER),
            Map.entry(DISCORD, SenderRetries.NEVER), Map.entry(META, SenderRetries.NEVER),
            Map.entry(TWITCH, SenderRetries.NEVER),
            // A few times within minutes.
            Map.entry(SLACK, SenderRetries.BRIEFLY), Map.entry(LEMON_SQUEEZY, SenderRetries.BRIEFLY),
            Map.entry(PAGERDUTY, SenderRetries.BRIEFLY), Map.entry(WEBFLOW, SenderRetries.BRIEFLY),
            Map.entry(CLICKUP, SenderRetries.BRIEFLY), Map.entry(DROPBOX, SenderRetries.BRIEFLY),
            // For an hour or more.
            Map.entry(STRIPE, SenderRetries.LONG), Map.entry(SHOPIFY, SenderRetries.LONG),
            Map.entry(STANDARD_WEBHOOKS, SenderRetries.LONG), Map.entry(CLERK, SenderRetries.LONG),
            Map.entry(RESEND, SenderRetries.LONG), Map.entry(ZOOM, SenderRetries.LONG),
            Map.entry(RAZORPAY, SenderRetries.LONG), Map.entry(PADDLE, SenderRetries.LONG),
            Map.entry(SQUARE, SenderRetries.LONG), Map.entry(LINEAR, SenderRetries.LONG),
            Map.entry(CALENDLY, SenderRetries.LONG), Map.entry(HUBSPOT, SenderRetries.LONG),
            Map.entry(MUX, SenderRetries.LONG), Map.entry(COINBASE_COMMERCE, SenderRetries.LONG),
            Map.entry(WORKOS, SenderRetries.LONG), Map.entry(SENDGRID, SenderRetries.LONG),
            Map.entry(MAILGUN, SenderRetries.LONG), Map.entry(ASANA, SenderRetries.LONG),
            Map.entry(XERO, SenderRetries.LONG));
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
        commonHmacSenders(m);
        // Handshake presets: none sends a delivery id, so the body hash is the key.
        m.put(META, SignatureScheme.builder(META_SIGNATURE).prefix("sha256=").build());
        m.put(X, SignatureScheme.builder(X_SIGNATURE).encoding(Encoding.BASE64).prefix("sha256=").build());
        m.put(DROPBOX, SignatureScheme.builder("X-Dropbox-Signature").build());
        // Asana and Xero sign arrays of events and send no delivery id: the body hash is the key.
        m.put(ASANA, SignatureScheme.builder(AsanaHandshake.SIGNATURE_HEADER).build());
        m.put(XERO, SignatureScheme.builder("x-xero-signature").encoding(Encoding.BASE64).build());
        return Collections.unmodifiableMap(m);
    }

    /** Common HMAC senders (issue 20): each scheme as its provider's documentation states it (docs/providers.md). */
    private static void commonHmacSenders(Map<String, SignatureScheme> m) {
        m.put(TYPEFORM, SignatureScheme.builder("Typeform-Signature").encoding(Encoding.BASE64).prefix("sha256=")
                .dedupeBodyField("event_id").build());
        m.put(CALENDLY, SignatureScheme.builder("Calendly-Webhook-Signature").params(",", "v1")
                .timestampFromParam("t", DEFAULT_TOLERANCE).signedContent("{ts}.{body}").build());
        m.put(HUBSPOT, SignatureScheme.builder("X-HubSpot-Signature-v3").encoding(Encoding.BASE64)
                .timestampFromHeader(DEFAULT_TOLERANCE, "X-HubSpot-Request-Timestamp")
                .timestampUnit(TimestampUnit.MILLISECONDS).signedContent("POST{url}{body}{ts}").build());
        m.put(LEMON_SQUEEZY, SignatureScheme.builder("X-Signature").build());
        m.put(WOOCOMMERCE, SignatureScheme.builder("X-WC-Webhook-Signature").encoding(Encoding.BASE64)
                .dedupeHeaders("X-WC-Webhook-Delivery-ID").build());
        m.put(RAZORPAY, SignatureScheme.builder("X-Razorpay-Signature").dedupeHeaders("x-razorpay-event-id").build());
        m.put(MUX, SignatureScheme.builder("Mux-Signature").params(",", "v1")
                .timestampFromParam("t", DEFAULT_TOLERANCE).signedContent("{ts}.{body}").dedupeBodyField("id").build());
        m.put(BITBUCKET, SignatureScheme.builder("X-Hub-Signature").prefix("sha256=").dedupeHeaders("X-Request-UUID")
                .build());
        m.put(SENTRY, SignatureScheme.builder("Sentry-Hook-Signature").dedupeHeaders("Request-ID").build());
        m.put(PAGERDUTY, SignatureScheme.builder("X-PagerDuty-Signature").prefix("v1=").list(",").build());
        m.put(VERCEL, SignatureScheme.builder("x-vercel-signature").algorithm(Algorithm.SHA1).dedupeBodyField("id")
                .build());
        // Clerk and Resend send through Svix: the Standard Webhooks scheme under their own names.
        m.put(CLERK, m.get(STANDARD_WEBHOOKS));
        m.put(RESEND, m.get(STANDARD_WEBHOOKS));
        m.put(GITEA, SignatureScheme.builder("X-Gitea-Signature").dedupeHeaders("X-Gitea-Delivery").build());
        m.put(COINBASE_COMMERCE, SignatureScheme.builder("X-CC-Webhook-Signature").build());
        m.put(WORKOS, SignatureScheme.builder("WorkOS-Signature").params(",", "v1")
                .timestampFromParam("t", WORKOS_TOLERANCE).timestampUnit(TimestampUnit.MILLISECONDS)
                .signedContent("{ts}.{body}").dedupeBodyField("id").build());
        m.put(WEBFLOW, SignatureScheme.builder("x-webflow-signature")
                .timestampFromHeader(DEFAULT_TOLERANCE, "x-webflow-timestamp").timestampUnit(TimestampUnit.MILLISECONDS)
                .signedContent("{ts}:{body}").build());
        m.put(CIRCLECI, SignatureScheme.builder("circleci-signature").params(",", "v1").dedupeBodyField("id").build());
        m.put(CLICKUP, SignatureScheme.builder("X-Signature").build());
        m.put(TRELLO, SignatureScheme.builder("X-Trello-Webhook").algorithm(Algorithm.SHA1).encoding(Encoding.BASE64)
                .signedContent("{body}{url}").build());
        m.put(ZENDESK, SignatureScheme.builder("X-Zendesk-Webhook-Signature").encoding(Encoding.BASE64)
                .timestampFromHeader(DEFAULT_TOLERANCE, "X-Zendesk-Webhook-Signature-Timestamp")
                .timestampUnit(TimestampUnit.ISO_8601).signedContent("{ts}{body}")
                .dedupeHeaders("x-zendesk-webhook-invocation-id").build());
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
        for (String name : SIGNED_TIMESTAMP_OWN_CODE) {
            m.put(name, ownCode(name, DEFAULT_TOLERANCE));
        }
        return Collections.unmodifiableMap(m);
    }

    private static SignatureVerifier decorate(String provider, SignatureVerifier verifier) {
        return switch (provider) {
            case SLACK -> new HandshakeVerifier(verifier, HandshakeVerifier.Kind.SLACK);
            case ZOOM -> new HandshakeVerifier(verifier, HandshakeVerifier.Kind.ZOOM);
            case STANDARD_WEBHOOKS -> new StandardWebhooksVerifier((SchemeVerifier) verifier);
            case DISCORD -> new HandshakeVerifier(verifier, HandshakeVerifier.Kind.DISCORD);
            case X -> new JsonObjectOnlyVerifier(verifier, List.of(X_SIGNATURE));
            case XERO, ASANA -> new HandshakeVerifier(verifier, HandshakeVerifier.Kind.EMPTY_EVENTS);
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

    /** What the provider does after a refusal (its documentation); {@link SenderRetries#NEVER} when not known. */
    public static SenderRetries retries(String provider) {
        return provider == null ? SenderRetries.NEVER : RETRIES.getOrDefault(provider, SenderRetries.NEVER);
    }

    /** Whether the provider signs the tenant's public URL (which the tenant config must then carry). */
    public static boolean needsPublicUrl(String provider, SignatureScheme custom) {
        SignatureScheme scheme = CUSTOM.equals(provider) ? custom : preset(provider);
        return TWILIO.equals(provider) || (scheme != null && scheme.signsUrl());
    }

    /** Whether the provider signs a timestamp (so a tolerance applies and may be overridden per tenant). */
    public static boolean signsTimestamp(String provider, SignatureScheme custom) {
        SignatureScheme scheme = CUSTOM.equals(provider) ? custom : preset(provider);
        return TWITCH.equals(provider) || (scheme != null && scheme.signsTimestamp())
                || SIGNED_TIMESTAMP_OWN_CODE.contains(provider);
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
        return SecretKeyChecks.problem(provider, CUSTOM.equals(provider) ? custom : preset(provider), secrets);
    }

    private static SignatureVerifier build(Settings s) {
        try {
            if (TWILIO.equals(s.provider())) {
                return new TwilioVerifier(s.publicUrl());
            }
            if (SIGNED_TIMESTAMP_OWN_CODE.contains(s.provider())) {
                return ownCode(s.provider(), s.toleranceSeconds() == null ? DEFAULT_TOLERANCE : s.toleranceSeconds());
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

    /** The verifiers with their own code that sign a timestamp, at a tolerance. */
    private static SignatureVerifier ownCode(String provider, int toleranceSeconds) {
        return switch (provider) {
            case SENDGRID -> new PublicKeyVerifier(PublicKeyVerifier.Kind.SENDGRID, toleranceSeconds);
            case DISCORD -> decorate(DISCORD, new PublicKeyVerifier(PublicKeyVerifier.Kind.DISCORD, toleranceSeconds));
            default -> new MailgunVerifier(toleranceSeconds);
        };
    }

    /**
     * The provider's endpoint check by GET (Meta, X, Dropbox), or null when it has none: its GET is then a 405 as
     * for every other provider.
     */
    public static QueryHandshake queryHandshake(String provider) {
        return provider == null ? null : QUERY_HANDSHAKES.get(provider);
    }

    /**
     * Whether the provider reads an answer's body and requires it empty (Xero: "there is no body in the response"):
     * its events (buffered or duplicate) and its refusals of a bad signature are then answered with the same status
     * and no body. The reason stays in the tenant's refusals.
     */
    public static boolean answersWithoutBody(String provider) {
        return XERO.equals(provider);
    }

    /**
     * The provider's secret handshake, or null when it has none: Asana's {@code X-Hook-Secret}, the one request that
     * sets a tenant's secret from the ingest path, and only inside a window the operator opened.
     */
    public static AsanaHandshake secretHandshake(String provider) {
        return ASANA.equals(provider) ? AsanaHandshake.INSTANCE : null;
    }

    private static List<String> names(String... names) {
        return Collections.unmodifiableList(new ArrayList<>(List.of(names)));
    }

    private record Settings(String provider, String publicUrl, Integer toleranceSeconds, SignatureScheme custom) {
    }
}
