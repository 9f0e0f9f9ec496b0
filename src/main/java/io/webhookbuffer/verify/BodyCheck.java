package io.webhookbuffer.verify;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.List;

import javax.crypto.Mac;

import io.webhookbuffer.verify.SignatureScheme.Algorithm;

/**
 * A signature checked from the headers first and then over a body held wherever its holder keeps it
 * ({@link SignatureVerifier#bodyCheck}): each of the tenant's secrets has a MAC of its own that takes the body in one
 * or more parts, so the ingest gate never has to copy a body of unknown authenticity onto the heap to learn that it
 * was forged (ingress.CheckedBody; docs/architecture.md "What an unauthenticated request costs"). What
 * {@link #finish} says is what {@link SignatureVerifier#verify} says of the same request and body: a failure found
 * in the headers before the MAC (a missing or malformed signature, a stale timestamp, no secret),
 * else {@link VerificationFailure#BAD_SIGNATURE} or {@link VerificationFailure#NONE}, compared in constant time with
 * no early exit. Not thread-safe: one request's, used by one thread at a time.
 */
public final class BodyCheck {

    private final VerificationFailure known;
    /** One per secret, in the tenant's order; null for a secret that cannot be a key of the scheme. */
    private final Mac[] macs;
    /** What the signed content has after the body (literals, the timestamp, the id), in order. */
    private final byte[][] after;
    private final List<byte[]> provided;
    private boolean finished;

    /**
     * @param keys one per secret, in the tenant's order; null for a secret that cannot be a key of the scheme
     * @param before what the signed content has before the body, in order
     * @param after what it has after the body
     * @param provided the signatures the request carries
     */
    BodyCheck(Algorithm algorithm, List<byte[]> keys, byte[][] before, byte[][] after, List<byte[]> provided) {
        this.known = null;
        this.macs = new Mac[keys.size()];
        for (int i = 0; i < macs.length; i++) {
            byte[] key = keys.get(i);
            if (key == null || key.length == 0) {
                continue;
            }
            // A Mac of its own (not the thread's): the body comes in over many turns of the event loop.
            macs[i] = Macs.fresh(algorithm, key);
            for (byte[] part : before) {
                macs[i].update(part);
            }
        }
        this.after = after;
        this.provided = provided;
    }

    private BodyCheck(VerificationFailure known) {
        this.known = known;
        this.macs = new Mac[0];
        this.after = new byte[0][];
        this.provided = List.of();
    }

    /** A request its headers refuse already: the body needs no MAC and need not be kept. */
    static BodyCheck refused(VerificationFailure failure) {
        return new BodyCheck(failure);
    }

    /** Whether the headers decided already (the body's bytes change nothing: they need not be kept). */
    public boolean decided() {
        return known != null;
    }

    /** The next bytes of the body, in order (the buffer's position is left where it was). */
    public void update(ByteBuffer chunk) {
        if (known != null || finished) {
            return;
        }
        for (Mac mac : macs) {
            if (mac != null) {
                mac.update(chunk.duplicate());
            }
        }
    }

    /** After the whole body: NONE when one of the secrets signed it, else why not. Once only. */
    public VerificationFailure finish() {
        if (known != null) {
            return known;
        }
        if (finished) {
            throw new IllegalStateException("a body check is finished once");
        }
        finished = true;
        boolean match = false;
        for (Mac mac : macs) {
            if (mac == null) {
                continue;
            }
            for (byte[] part : after) {
                mac.update(part);
            }
            byte[] expected = mac.doFinal();
            for (byte[] signature : provided) {
                // No early exit: the time taken does not say which secret or which signature matched.
                match |= MessageDigest.isEqual(expected, signature);
            }
        }
        return match ? VerificationFailure.NONE : VerificationFailure.BAD_SIGNATURE;
    }
}
