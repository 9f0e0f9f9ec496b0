package io.webhookbuffer.delivery;

import java.util.List;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.webhookbuffer.queue.DrainStore;
import io.webhookbuffer.queue.QueuedEvent;

/**
 * A tenant's lease and cursor on this replica, the hard part of delivery: one batch in flight per tenant across the
 * cluster. The lease is a fenced token in PostgreSQL with a TTL, taken or renewed in the statement that reads the head;
 * every write names explicit row ids and is fenced by the token, so a step that lost the lease changes nothing and the
 * new holder sends the batch again. The cursor (the highest id this drainer removed) lets reads skip the deleted rows
 * at the head of a busy range; it is rewound when a hold begins, when a read after it finds nothing, and every few
 * seconds, so a row that committed late is never stranded behind it. Used only by the step that holds the tenant's
 * drain (steps run on different event loops, hence volatile).
 */
final class TenantLease {

    private static final Logger LOG = Logger.getLogger(Drainer.class);
    /** The cursor is rewound at least this often, so a row that committed late is never stranded behind it. */
    private static final long CURSOR_REWIND_MILLIS = 5_000;

    private final String tenantId;
    private final LeaseTerms terms;
    private final DrainStore store;
    private final long ttlMillis;
    private final int batchSize;
    /** Our lease token while we hold the tenant. */
    private volatile Long token;
    /** Highest row id this drainer removed; reads start after it (see DrainStore.RENEW_AND_HEAD). */
    private volatile long cursor;
    private volatile long cursorSince;
    /**
     * The next head, read in the same statement that deleted the last batch (and renewed the lease), with the cursor
     * it was read after and when; the next step sends it without a read of its own if it gets its bulkhead slot while
     * the renewal is fresh (see {@link LeaseTerms#prefetchFreshNanos}).
     */
    private volatile List<QueuedEvent> prefetched;
    private volatile long prefetchedAfter;
    private volatile long prefetchedAtNanos;
    /** The lease token kept through a backoff wait (see {@link #letGo}), released at shutdown. */
    private volatile Long parked;

    TenantLease(String tenantId, LeaseTerms terms) {
        this.tenantId = tenantId;
        this.terms = terms;
        this.store = terms.store();
        this.ttlMillis = terms.config().leaseTtl().toMillis();
        this.batchSize = terms.config().batchSize();
        this.cursorSince = terms.clock().millis();
    }

    /** A drain begins: the first step's acquire renews our own parked lease, and reads from the start. */
    void newHold() {
        parked = null;
        rewind(); // rows left by an earlier holder may sit below our old cursor
    }

    /** Where the next read starts: the cursor, rewound first when it has not been for a while. */
    long readFrom() {
        if (cursor > 0 && terms.clock().millis() - cursorSince > CURSOR_REWIND_MILLIS) {
            rewind();
        }
        return cursor;
    }

    /**
     * The head to send next, null when the tenant is not (or no longer) ours. A new hold takes the lease and reads the
     * first rows in one statement (null: another replica holds it). Then: the head read with the last delete, when it
     * was read after this cursor and the lease renewal that came with it is still fresh; else a read of its own that
     * renews the lease, and that releases it when a read from the start finds nothing (the tenant goes idle without a
     * round trip of its own to let go).
     */
    Uni<List<QueuedEvent>> head(long after) {
        if (token == null) {
            return store.acquireAndHead(tenantId, terms.holder(), ttlMillis, batchSize).map(hold -> {
                if (hold == null) {
                    return null; // another replica drains this tenant
                }
                token = hold.token();
                return hold.head();
            });
        }
        List<QueuedEvent> ready = prefetched;
        prefetched = null;
        boolean fresh = terms.clock().nanos() - prefetchedAtNanos < terms.prefetchFreshNanos();
        if (ready != null && prefetchedAfter == after && fresh) {
            return Uni.createFrom().item(ready);
        }
        if (after == 0) {
            return store.renewOrRelease(tenantId, token, ttlMillis, batchSize).invoke(head -> {
                if (head != null && head.isEmpty()) {
                    token = null; // released with the read
                }
            });
        }
        return store.renewAndHead(tenantId, token, ttlMillis, batchSize, after);
    }

    /**
     * The origin has these rows ({@code lastId} the batch's last): delete them, renew the lease and read the next head
     * in one statement; the cursor moves past them, or rewinds when rows went under us (not by this drainer).
     */
    Uni<NextStep> delete(Long[] done, long lastId) {
        long after = Math.max(cursor, lastId);
        return store.deleteAndNext(tenantId, token, done, ttlMillis, batchSize, after).map(result -> {
            if (result.next() == null) {
                return lost(); // nothing deleted: the new holder delivers the batch again
            }
            terms.counts().delivered(tenantId, result.deleted());
            if (result.deleted() == done.length) {
                cursor = after;
                prefetched = result.next();
                prefetchedAfter = after;
                prefetchedAtNanos = terms.clock().nanos();
            } else {
                rewind(); // read from the start again
            }
            return NextStep.CONTINUE;
        });
    }

    /** Our lease was lost under a write (it changed nothing): the new holder goes on from the start. */
    NextStep lost() {
        rewind();
        return NextStep.LOST;
    }

    void rewind() {
        cursor = 0;
        cursorSince = terms.clock().millis();
    }

    /**
     * A drain step ended. Through a wait the lease is kept: other replicas' sweeps skip the tenant meanwhile, our timer
     * takes it back (same holder), and if we die it is free when the wait would have ended anyway. Otherwise it is
     * released; a lost lease is not ours to release. An idle drain keeps no rows in memory.
     */
    void letGo(NextStep next) {
        Long held = token;
        token = null;
        prefetched = null; // the next hold reads its own head
        if (held != null && next.kind() == NextStep.Kind.WAIT && !terms.stopped()) {
            parked = held;
            store.park(tenantId, held, next.untilMillis()).subscribe().with(v -> {
            }, f -> LOG.debugf("lease park for %s failed (it expires on its own): %s", tenantId, f.getMessage()));
        } else if (held != null && next.kind() != NextStep.Kind.LOST) {
            store.release(tenantId, held).subscribe().with(v -> {
            }, f -> LOG.debugf("lease release for %s failed (it expires on its own): %s", tenantId, f.getMessage()));
        }
    }

    /** The lease parked for a wait, taken for release at shutdown (null: none); only while no step runs. */
    Long unpark() {
        Long held = parked;
        parked = null;
        return held;
    }

    /** The lease parked for a wait, left in place (null: none). */
    Long parkedToken() {
        return parked;
    }

    String tenantId() {
        return tenantId;
    }

    Long token() {
        return token;
    }
}
