package io.webhookbuffer.testsupport;

import java.nio.charset.StandardCharsets;

import io.restassured.response.Response;

/**
 * An event sent the way most tests send one: the generic provider's signature under {@link TestTenants#DEFAULT_SECRET}
 * (unless a test passes another), {@code X-Event-ID} as the provider's id and a small JSON body naming it.
 */
public final class Events {

    private Events() {
    }

    /** The body {@link #post} sends for {@code eventId}: {@code {"id":"<eventId>"}}. */
    public static String body(String eventId) {
        return "{\"id\":\"" + eventId + "\"}";
    }

    /** Its length in bytes, as the usage counts measure it. */
    public static int bodyBytes(String eventId) {
        return body(eventId).getBytes(StandardCharsets.UTF_8).length;
    }

    /**
     * The key the event {@link #post} sends is deduplicated and delivered under: the generic scheme's signature does
     * not cover {@code X-Event-ID}, so the id is bound to the body (docs/providers.md).
     */
    public static String key(String eventId) {
        return EventKeys.bound(eventId, body(eventId));
    }

    /** Sends the event and returns the answer, whatever it is. */
    public static Response post(String tenantId, String eventId) {
        return post(tenantId, eventId, TestTenants.DEFAULT_SECRET);
    }

    /** Sends the event signed under {@code secret} and returns the answer, whatever it is. */
    public static Response post(String tenantId, String eventId, String secret) {
        return send(tenantId, eventId, body(eventId), secret);
    }

    /** Sends the event and asserts it was accepted: 202, committed. */
    public static void accept(String tenantId, String eventId) {
        accept(tenantId, eventId, body(eventId));
    }

    /** Sends {@code body} under the provider id {@code eventId} and asserts it was accepted: 202, committed. */
    public static void accept(String tenantId, String eventId, String body) {
        send(tenantId, eventId, body, TestTenants.DEFAULT_SECRET).then().statusCode(202);
    }

    private static Response send(String tenantId, String eventId, String body, String secret) {
        return Signed.webhook(secret, body).header("X-Event-ID", eventId).post("/webhook/" + tenantId);
    }
}
