package io.webhookbuffer.ingress;

import java.util.concurrent.CompletionStage;
import java.util.function.Function;

import org.jboss.logging.Logger;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.vertx.core.buffer.Buffer;
import io.webhookbuffer.verify.BodyCheck;
import io.webhookbuffer.verify.VerificationFailure;

/**
 * A large body whose signature is checked before it is copied onto the heap: {@link IngressGate} holds its bytes off
 * the heap as they arrive, and once it is complete {@link IngestService} has the MAC ({@link BodyCheck}) run over
 * them on the verification pool, so a forged body never becomes a heap array (large ones were G1 humongous objects:
 * tens of collections a second under the abuse suite's 15 MB uploads, and the legitimate sender's p99 with them). Only
 * a body that verified is copied onto the heap, once. A body its headers refuse already (no signature, a malformed
 * one, a stale timestamp) is not kept at all. Holds a slot of the tenant's large-body checks
 * ({@link VerificationBudget#permit}) until its verdict is in. Used on the request's event loop, but for
 * {@link #verify}, which runs on the pool while the loop leaves the bytes alone: a close meanwhile frees them only
 * when it has returned.
 */
final class CheckedBody implements BodyRoom {

    private static final Logger LOG = Logger.getLogger(CheckedBody.class);

    /** Not pooled: the memory goes back as soon as the request is answered, so RSS falls back after a flood. */
    private static final ByteBufAllocator OFF_HEAP = UnpooledByteBufAllocator.DEFAULT;
    private static final byte[] NOT_KEPT = new byte[0];

    /**
     * What the check said ({@code checked}: {@code NONE} when the body verified, why not when it failed, null when it
     * was not checked), and the body's bytes on the heap unless it failed.
     */
    record Verdict(byte[] body, int length, VerificationFailure checked) {
    }

    private final BodyCheck check;
    private VerificationBudget.Permit permit;
    private ByteBuf held;
    private int size;
    /** Set on the event loop: the pool is reading {@link #held}, so it may not be freed yet. */
    private boolean verifying;
    private boolean abandoned;

    CheckedBody(BodyCheck check, VerificationBudget.Permit permit) {
        this.check = check;
        this.permit = permit;
    }

    /**
     * Makes room off the heap: none at first, growing with the bytes up to {@code limit} (the declared length, or the
     * tenant's limit). False when direct memory ran out (it is bounded by the in-flight budget well before the JVM's
     * limit).
     */
    boolean open(int limit) {
        if (check.decided()) {
            return true;
        }
        try {
            held = OFF_HEAP.directBuffer(0, limit);
            return true;
        } catch (OutOfMemoryError e) {
            return false;
        }
    }

    @Override
    public int room() {
        return held == null ? -1 : held.capacity();
    }

    @Override
    public void grow(int capacity) {
        held.capacity(capacity);
    }

    /** The next chunk: off the heap, unless the headers decided already. */
    @Override
    public void add(Buffer chunk) {
        if (held != null) {
            held.writeBytes(chunk.getByteBuf());
        }
        size += chunk.length();
    }

    /** Whether {@link #verify} needs the pool (the headers did not decide). */
    boolean needsMac() {
        return !check.decided();
    }

    /**
     * On the event loop: hands {@link #verify}, then {@code then} with its verdict, to the pool (the result comes back
     * on this loop); null when the pool is full.
     */
    <T> CompletionStage<T> verifyOn(VerificationPool pool, String tenantId, Function<Verdict, T> then) {
        verifying = true;
        CompletionStage<T> result = pool.submit(tenantId, () -> {
            Verdict v = verify();
            LOG.debugf("Checked %d bytes off the heap for tenant %s on %s", v.length(), tenantId,
                    Thread.currentThread().getName());
            return then.apply(v);
        });
        verifying = result != null;
        return result;
    }

    /**
     * On the event loop, when {@link #verify} has returned or failed: true when the request is still there to be
     * answered; false when it was closed meanwhile (its bytes are freed now).
     */
    boolean verified() {
        verifying = false;
        if (abandoned) {
            letGo();
            return false;
        }
        return true;
    }

    int size() {
        return size;
    }

    /**
     * The whole body is in: the MAC over it (on the pool when {@link #needsMac}) and the verdict, the bytes copied
     * onto the heap only when they verified. Frees nothing: the event loop does, with {@link #letGo}.
     */
    Verdict verify() {
        if (held != null) {
            check.update(held.nioBuffer(0, size));
        }
        VerificationFailure verdict = check.finish();
        return verdict == VerificationFailure.NONE ? onHeap(verdict) : new Verdict(NOT_KEPT, size, verdict);
    }

    private Verdict onHeap(VerificationFailure checked) {
        byte[] body = new byte[size];
        held.getBytes(0, body);
        return new Verdict(body, size, checked);
    }

    /**
     * Frees the off-heap bytes and the slot; again is harmless (passed on, refused, closed: whichever comes first).
     * While the pool reads the bytes, only marks them to be freed when it has returned ({@link #verified}).
     */
    void letGo() {
        if (verifying) {
            abandoned = true;
            return;
        }
        if (held != null) {
            held.release();
            held = null;
        }
        if (permit != null) {
            permit.release();
            permit = null;
        }
    }
}
