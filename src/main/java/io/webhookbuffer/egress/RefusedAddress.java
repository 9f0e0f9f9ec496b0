package io.webhookbuffer.egress;

/**
 * The connection was not made: the host resolved to an address in a refused range ({@link AddressRanges}) that
 * {@code buffer.origin.allowed-private-networks} does not contain. Nothing was sent. Carries no stack trace: it is an
 * expected outcome of a misconfiguration, not a bug.
 */
public final class RefusedAddress extends RuntimeException {

    public RefusedAddress(String message) {
        super(message, null, false, false);
    }
}
