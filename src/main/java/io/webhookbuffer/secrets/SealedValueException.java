package io.webhookbuffer.secrets;

/**
 * A stored value that does not open: sealed under a key that is not configured, moved from another tenant or field,
 * or damaged. The message names the tenant, the field and the key id, never a value. No stack trace: it is an answer.
 */
public final class SealedValueException extends RuntimeException {

    private static final long serialVersionUID = 1L;
    private final String keyId;

    SealedValueException(String message, String keyId) {
        super(message, null, false, false);
        this.keyId = keyId;
    }

    /** The key id the value names, or null when the value is not in the sealed format at all. */
    public String keyId() {
        return keyId;
    }
}
