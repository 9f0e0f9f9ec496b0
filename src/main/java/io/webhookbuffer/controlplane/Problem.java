package io.webhookbuffer.controlplane;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem body ({@code application/problem+json}) with our {@code reason}: a stable, machine-readable
 * code such as {@code stale_timestamp} or {@code invalid_request}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String reason) {

    public static final String MEDIA_TYPE = "application/problem+json";

    static Problem of(int status, String title, String reason, String detail) {
        return new Problem("urn:webhook-buffer:problem:" + reason, title, status, detail, reason);
    }
}
