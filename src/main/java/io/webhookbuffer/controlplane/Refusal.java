package io.webhookbuffer.controlplane;

/** Why a command was refused; {@link #reason()} is what the caller sees. */
public enum Refusal {
    NOT_CONFIGURED("not_configured", "The buffer has no control secret configured; every command is refused."),
    MISSING_HEADERS("missing_headers", "x-timestamp, x-nonce and x-signature are required and must be well formed."),
    STALE_TIMESTAMP("stale_timestamp", "x-timestamp is outside the accepted window; check the sender's clock."),
    BAD_SIGNATURE("bad_signature", "x-signature does not match the request (v2 signs the method and the path with"
            + " its query as sent, the timestamp, the nonce and the body)."),
    V1_REFUSED("v1_refused", "This buffer accepts v2 signatures only (buffer.control.accept-v1 is false): send"
            + " x-signature: v2=..."),
    REPLAYED_NONCE("replayed_nonce", "x-nonce was already used.");

    private final String reason;
    private final String detail;

    Refusal(String reason, String detail) {
        this.reason = reason;
        this.detail = detail;
    }

    public String reason() {
        return reason;
    }

    public String detail() {
        return detail;
    }
}
