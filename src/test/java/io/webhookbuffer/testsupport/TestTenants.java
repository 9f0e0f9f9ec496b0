package io.webhookbuffer.testsupport;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** Provisions tenants through the real signed command, each test with fresh ids so tests never share state. */
public final class TestTenants {

    public static final String DEFAULT_SECRET = "whsec-test-current-0001";
    public static final String PREVIOUS_SECRET = "whsec-test-previous-0000";

    /** How many PUTs {@link #provisionAll} has in flight at once. */
    private static final int AT_ONCE = 8;

    private String id = "t-" + UUID.randomUUID().toString().replace("-", "").substring(0, 20);
    private boolean active = true;
    private List<String> secrets = List.of(DEFAULT_SECRET);
    private int rateLimit = 1000;
    private int rateWindowSeconds = 10;
    private Integer maxBodyBytes;
    private Long maxQueuedBytes;
    private String provider = "generic";
    private String publicUrl;
    private boolean trustTraceContext;
    private Integer toleranceSeconds;
    private String customSchemeJson;
    private String senderRetries;

    public static TestTenants tenant() {
        return new TestTenants();
    }

    public TestTenants active(boolean value) {
        this.active = value;
        return this;
    }

    public TestTenants secrets(String... values) {
        return secrets(List.of(values));
    }

    public TestTenants secrets(List<String> values) {
        this.secrets = List.copyOf(values);
        return this;
    }

    public TestTenants rateLimit(int limit, int windowSeconds) {
        this.rateLimit = limit;
        this.rateWindowSeconds = windowSeconds;
        return this;
    }

    public TestTenants maxBodyBytes(int value) {
        this.maxBodyBytes = value;
        return this;
    }

    /** The tenant's own queued-bytes quota ({@code maxQueuedBytes}). */
    public TestTenants maxQueuedBytes(long value) {
        this.maxQueuedBytes = value;
        return this;
    }

    public TestTenants provider(String value) {
        this.provider = value;
        return this;
    }

    /** The URL the provider signs (Square, Twilio). */
    public TestTenants publicUrl(String value) {
        this.publicUrl = value;
        return this;
    }

    public TestTenants toleranceSeconds(int value) {
        this.toleranceSeconds = value;
        return this;
    }

    /**
     * What the sender does after a refusal ({@code never}, {@code briefly}, {@code long}); unset: the provider's. A
     * test of the 429 over the rate limit sets {@code long}: a {@code generic} sender is taken not to retry.
     */
    public TestTenants senderRetries(String value) {
        this.senderRetries = value;
        return this;
    }

    /** Whether the sender's {@code traceparent} parents its ingest span (docs/operations.md "Tracing"). */
    public TestTenants trustTraceContext(boolean value) {
        this.trustTraceContext = value;
        return this;
    }

    /** {@code "provider": "custom"} with this scheme object (JSON text). */
    public TestTenants customScheme(String json) {
        this.provider = "custom";
        this.customSchemeJson = json;
        return this;
    }

    public String id() {
        return id;
    }

    public String json() {
        String secretList = secrets.stream().map(s -> "\"" + s + "\"").collect(Collectors.joining(","));
        return "{\"active\":" + active + ",\"provider\":\"" + provider + "\",\"secrets\":[" + secretList
                + "],\"rateLimit\":" + rateLimit + ",\"rateWindowSeconds\":" + rateWindowSeconds
                + (maxBodyBytes == null ? "" : ",\"maxBodyBytes\":" + maxBodyBytes)
                + (maxQueuedBytes == null ? "" : ",\"maxQueuedBytes\":" + maxQueuedBytes)
                + (publicUrl == null ? "" : ",\"publicUrl\":\"" + publicUrl + "\"")
                + (toleranceSeconds == null ? "" : ",\"toleranceSeconds\":" + toleranceSeconds)
                + (customSchemeJson == null ? "" : ",\"customScheme\":" + customSchemeJson)
                + (senderRetries == null ? "" : ",\"senderRetries\":\"" + senderRetries + "\"")
                + (trustTraceContext ? ",\"trustTraceContext\":true" : "") + "}";
    }

    /** Sends the signed PUT and returns the tenant id. */
    public String provision() {
        Signed.command(json()).when().put("/control/tenants/" + id).then().statusCode(200);
        return id;
    }

    /**
     * Provisions these tenants {@value #AT_ONCE} at a time, each with its own signed PUT as {@link #provision()} sends
     * it, and returns their ids in the same order: for a test that needs hundreds of fresh tenants, whose PUTs one
     * after another (a command checked, a transaction committed, a change announced, each) were most of its time.
     */
    public static List<String> provisionAll(List<TestTenants> tenants) {
        return AtOnce.run(AT_ONCE, tenants.stream().map(t -> (Callable<String>) t::provision).toList());
    }
}
