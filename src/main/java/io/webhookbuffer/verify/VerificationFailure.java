package io.webhookbuffer.verify;

/** Why a signature was refused. Never says which secret was tried or what was expected. */
public enum VerificationFailure {
    NONE("ok"),
    MISSING_SIGNATURE("missing_signature"),
    MALFORMED_SIGNATURE("malformed_signature"),
    BAD_SIGNATURE("bad_signature"),
    NO_SECRET("bad_signature"),
    /** The signature matched but its signed timestamp is outside the tolerance around the receive time. */
    STALE_TIMESTAMP("stale_timestamp");

    private final String reason;

    VerificationFailure(String reason) {
        this.reason = reason;
    }

    /** The reason code sent to the caller. {@link #NO_SECRET} looks like a bad signature on the wire. */
    public String reason() {
        return reason;
    }
}
