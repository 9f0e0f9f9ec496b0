package io.webhookbuffer.queue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.quarkus.runtime.ShutdownEvent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxException;
import io.vertx.sqlclient.DatabaseException;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;

/**
 * Writes events to PostgreSQL with group commit: events that arrive while a commit is in flight share the next
 * one, whatever their tenant, so throughput is bound by commits, not by events. There is no timer and no
 * waiting for a batch to fill: an event on an idle writer is written at once.
 *
 * <p>Each commit is ONE statement (see {@link #INSERT_BATCH}): the dedupe insert and the queue insert succeed or
 * fail together, so a failed write leaves nothing that would make the sender's retry look like a duplicate.
 *
 * <p>Failure policy: a commit that PostgreSQL refuses for its data ({@link #refusedForItsData}) is split in halves,
 * recursively, until the events that cause it are alone: those are answered {@link StoreOutcome#NOT_STORABLE}
 * (422, storing them again would fail again) and every other event gets its true answer, so one tenant's bad
 * input never costs its neighbours a 503. A commit whose connection was lost before PostgreSQL answered is tried
 * again on another connection ({@link #retry}). Any other failure fails closed: every event not known to be stored
 * is answered FAILED (503 + Retry-After). The split and the retry run only after a failure; a commit that succeeds
 * is one statement and one round trip.
 */
@ApplicationScoped
public class GroupCommitWriter implements EventWriter {

    private static final Logger LOG = Logger.getLogger(GroupCommitWriter.class);
    private static final String NOT_NULL_VIOLATION = "23502";
    /** Tries after a lost connection, at most (see {@link #retry}). */
    private static final int RETRIES = 3;

    /** Tenants share this many commit locks (a commit takes at most this many: PostgreSQL's lock table is bounded). */
    static final int LOCK_BUCKETS = 64;
    /** A tenant's commit lock, as SQL over a {@code tenant_id} column. */
    static final String LOCK_BUCKET = "(hashtext(tenant_id) & " + (LOCK_BUCKETS - 1) + ")";
    /** The first key of the commit locks' two-key advisory form (other advisory locks here use the one-key form). */
    static final int LOCK_SPACE = 0x77620001;

    /**
     * The head of both statements below: the batch unpacked, its tenants' commit locks taken (in key order, so two
     * commits never wait for each other in a circle), and its dedupe rows claimed only then.
     */
    private static final String CLAIM = """
            WITH input AS (
                SELECT DISTINCT ON (tenant_id, event_id) *
                FROM unnest($1::text[], $2::text[], $3::bytea[], $4::text[], $5::text[], $6::timestamptz[])
                     AS t(tenant_id, event_id, body, content_type, headers, received_at)
            ), locked AS MATERIALIZED (
                SELECT count(*) AS tenants FROM (
                    SELECT pg_advisory_xact_lock(%d, k) FROM (
                        SELECT DISTINCT %s AS k FROM unnest($1::text[]) AS l(tenant_id) ORDER BY 1
                    ) keys
                ) l
            ), dedupe AS (
                INSERT INTO processed_events (tenant_id, event_id, received_at)
                SELECT tenant_id, event_id, received_at FROM input, locked
                ON CONFLICT (tenant_id, event_id) DO NOTHING
                RETURNING tenant_id, event_id
            )
            """.formatted(LOCK_SPACE, LOCK_BUCKET);

    private static final String QUEUE_INSERT = """
            INSERT INTO event_queue (tenant_id, event_id, body, content_type, headers, received_at, next_attempt_at)
            SELECT i.tenant_id, i.event_id, i.body, i.content_type, i.headers::jsonb, i.received_at, i.received_at
            FROM input i JOIN dedupe d ON d.tenant_id = i.tenant_id AND d.event_id = i.event_id
            RETURNING tenant_id, event_id""";

    /**
     * The whole durable write for a batch, as one statement in one implicit transaction.
     *
     * <ul>
     * <li>{@code input}: the batch unpacked from parallel arrays; DISTINCT ON guards against one (tenant, event) twice
     * in a batch, which would otherwise join twice below and queue two rows.</li>
     * <li>{@code dedupe}: claims (tenant_id, event_id) in processed_events. ON CONFLICT DO NOTHING makes an id that is
     * already there (stored earlier, or by another replica) return no row.</li>
     * <li>the queue insert takes only the events whose dedupe row was just claimed, and returns them: an input event
     * missing from the result was a duplicate. Its trigger (migration V12) adds the count per tenant to queue_depth
     * in the same statement, one upsert per tenant (see {@link QueueDepthFold}).</li>
     * </ul>
     */
    static final String INSERT_BATCH = CLAIM + QUEUE_INSERT;

    /**
     * {@link #INSERT_BATCH} again after a try whose outcome is unknown (its connection died before PostgreSQL's answer
     * arrived: it may have committed). It writes what the first try would have written (the dedupe key makes that
     * idempotent) and returns the events it stored and also those the first try stored: a dedupe row with this very
     * event's receive time (to the microsecond, stamped when its request arrived) was written for this request, so
     * the event is committed and its answer is 202, true to "202 means committed"; a 200 would tell the sender the
     * same "done" but count it as a duplicate and not wake its tenant's drain. A row with another receive time was
     * written for an earlier copy: 200, as always. The outer SELECT reads the statement's snapshot, which holds none
     * of the rows {@code dedupe} inserts, so nothing is returned twice; if the first try was still running in
     * PostgreSQL when this one began, its rows are not in that snapshot either and read as duplicates: 200, "done"
     * for the sender, and never a 202 for an event that is not committed.
     */
    static final String INSERT_BATCH_AFTER_UNKNOWN_OUTCOME = CLAIM + ", queued AS (\n" + QUEUE_INSERT + """

            )
            SELECT tenant_id, event_id FROM queued
            UNION ALL
            SELECT p.tenant_id, p.event_id
            FROM input i JOIN processed_events p
                 ON p.tenant_id = i.tenant_id AND p.event_id = i.event_id AND p.received_at = i.received_at""";

    /** An event waiting for a commit. It is answered exactly once, by the commit or by the timeout. */
    private static final class Pending {
        final IncomingEvent event;
        final Consumer<StoreOutcome> callback;
        final long enqueuedNanos = System.nanoTime();
        private final AtomicBoolean answered = new AtomicBoolean();

        Pending(IncomingEvent event, Consumer<StoreOutcome> callback) {
            this.event = event;
            this.callback = callback;
        }

        void answer(StoreOutcome outcome) {
            if (answered.compareAndSet(false, true)) {
                callback.accept(outcome);
            }
        }
    }

    /**
     * A commit on the wire, so the sweeper can time it out, with each event's outcome as it becomes known (a split
     * learns them part by part). Its events are answered together when it ends, or by the sweeper.
     */
    private static final class InFlight {
        final List<Pending> batch;
        final long startedNanos = System.nanoTime();
        final AtomicReference<SqlConnection> connection = new AtomicReference<>();
        final StoreOutcome[] outcomes;
        /** Connections lost under a try, kept from the pool until the commit ends. */
        final List<SqlConnection> lost = new ArrayList<>(0);

        InFlight(List<Pending> batch) {
            this.batch = batch;
            this.outcomes = new StoreOutcome[batch.size()];
        }

        /** The first event whose outcome is not known: a split learns outcomes in order, so all before it are. */
        int firstUnknown() {
            int i = 0;
            while (i < outcomes.length && outcomes[i] != null) {
                i++;
            }
            return i;
        }

        /** Answered already: by the sweeper (timed out), never partly. */
        boolean answered() {
            return batch.get(0).answered.get();
        }
    }

    private final Pool pool;
    /**
     * Connections kept between commits, at most one per commit slot: after the first commits a commit never waits in
     * the pool's queue, where a wave of other queries (a thousand tenants seen for the first time after a start, say)
     * would otherwise stand between it and the database. A connection whose commit failed is closed, not kept.
     * Taken and given back through {@link #takeKept} and {@link #keep} only, which hold the bound ({@code keptCount}):
     * the readiness probe borrows kept connections too.
     */
    private final ConcurrentLinkedQueue<SqlConnection> kept = new ConcurrentLinkedQueue<>();
    private final AtomicInteger keptCount = new AtomicInteger();
    /**
     * When the last commit ended, and whether it succeeded: readiness needs no query while commits succeed (see
     * {@link #probe}). Two volatile writes per commit, no round trip.
     */
    private volatile long lastCommitNanos;
    private volatile boolean lastCommitSucceeded;
    private final int maxBatchSize;
    private final int maxConcurrentCommits;
    private final long writeTimeoutNanos;
    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final Set<InFlight> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicInteger commitsInFlight = new AtomicInteger();
    private final BatchStats stats = new BatchStats();
    private final CommitListener listener;
    private volatile boolean stopping;

    public GroupCommitWriter(Pool pool, Vertx vertx, QueueConfig config, CommitListener listener) {
        this.pool = pool;
        this.listener = listener;
        this.maxBatchSize = config.maxBatchSize();
        this.maxConcurrentCommits = config.maxConcurrentCommits();
        this.writeTimeoutNanos = config.writeTimeout().toNanos();
        // One periodic sweep, not a timer per event: a timeout is detected within a quarter of its length.
        vertx.setPeriodic(Math.max(10, config.writeTimeout().toMillis() / 4), id -> sweep());
    }

    /**
     * Queues the event for the next commit. The callback runs exactly once, on a database I/O or timer thread (it
     * must not block), when the commit succeeded or failed, or when {@code buffer.queue.write-timeout} passed first.
     */
    @Override
    public void write(IncomingEvent event, Consumer<StoreOutcome> callback) {
        pending.add(new Pending(event, callback));
        flush();
    }

    /**
     * Graceful shutdown: runs after the shutdown delay and the wait for requests in flight
     * ({@code quarkus.shutdown.delay}, {@code quarkus.shutdown.timeout}; new requests are refused by
     * {@code ops.ShutdownGate} by then) and before the pool closes, and waits until every queued event is committed or
     * answered, at most {@code buffer.queue.write-timeout} plus a sweep: a sender that was promised an answer gets the
     * true one.
     */
    void finishInFlight(@Observes ShutdownEvent event) {
        long deadline = System.nanoTime() + writeTimeoutNanos + writeTimeoutNanos / 4 + 100_000_000L;
        if (!pending.isEmpty() || !inFlight.isEmpty()) {
            LOG.infof("shutdown: finishing %d queued and %d in-flight group commit(s)", pending.size(), inFlight.size());
        }
        while ((!pending.isEmpty() || !inFlight.isEmpty()) && System.nanoTime() < deadline) {
            LockSupport.parkNanos(5_000_000L); // the shutdown thread, never an event loop
        }
        stopping = true;
        closeKept();
    }

    /** Sizes of the commits so far, for the benchmark and operators. */
    public BatchStats stats() {
        return stats;
    }

    private void flush() {
        while (!pending.isEmpty()) {
            int n = commitsInFlight.get();
            if (n >= maxConcurrentCommits) {
                return; // the commit in flight calls flush() when it ends, and takes what queued meanwhile
            }
            if (!commitsInFlight.compareAndSet(n, n + 1)) {
                continue;
            }
            List<Pending> batch = new ArrayList<>(Math.min(maxBatchSize, 64));
            Pending p;
            while (batch.size() < maxBatchSize && (p = pending.poll()) != null) {
                if (!p.answered.get()) { // timed out while queued: already answered, not written
                    batch.add(p);
                }
            }
            if (batch.isEmpty()) {
                commitsInFlight.decrementAndGet();
                continue;
            }
            commit(batch);
        }
    }

    private void commit(List<Pending> batch) {
        InFlight commit = new InFlight(batch);
        inFlight.add(commit);
        SqlConnection held = takeKept();
        Future<SqlConnection> acquired = held != null ? Future.succeededFuture(held) : pool.getConnection();
        attempt(commit, acquired, false)
                .recover(failure -> acquired.failed() ? Future.failedFuture(failure) : retry(commit, failure, 1))
                .onComplete(result -> {
                    long now = System.nanoTime();
                    long nanos = now - commit.startedNanos;
                    lastCommitNanos = now;
                    lastCommitSucceeded = result.succeeded();
                    stats.record(batch.size(), nanos);
                    listener.committed(batch.size(), nanos);
                    inFlight.remove(commit);
                    // The slot is freed only when the database has answered (or the connection was closed by the
                    // sweeper), so a hung database cannot collect an unbounded number of concurrent commits.
                    commitsInFlight.decrementAndGet();
                    // The next commit leaves before this batch is answered: each answer runs its sender's reply
                    // chain (actor, response write) on this thread, and with one commit in flight that work would
                    // otherwise sit between two commits instead of overlapping the next one.
                    flush();
                    commit.lost.forEach(SqlConnection::close);
                    if (result.failed()) {
                        LOG.warnf("group commit of %d events failed: %s", batch.size(), result.cause().getMessage());
                    }
                    for (int i = 0; i < batch.size(); i++) {
                        StoreOutcome outcome = commit.outcomes[i];
                        batch.get(i).answer(outcome != null ? outcome : StoreOutcome.FAILED);
                    }
                });
    }

    /**
     * Failure policy: a commit whose connection was lost ({@link #lostConnection}) is tried again on another
     * connection from the pool, within the same write timeout (the sweeper still answers 503 when it passes), so that
     * a kept connection that died while no event came (PostgreSQL restarted, the network blinked) costs no sender a
     * 503. The earlier try may have committed: the retry's statement is idempotent and tells which events it stored
     * (see {@link #INSERT_BATCH_AFTER_UNKNOWN_OUTCOME}). The lost connection is held until the commit ends, never
     * handed back to the pool at once: the pool learns of its death only after the failure reaches us, and would lend
     * it straight back to the retry (seen here: eight retries in one millisecond on one dead connection). A restart
     * ends the pool's idle connections too, and the pool may lend one it has not heard of yet (seen in
     * CommitRecoveryTests: a second retry was needed), so a retry whose own connection is lost is retried as well,
     * {@link #RETRIES} times in all; each such failure is immediate. It stops at once when the pool cannot get a
     * connection at all (the database refuses or is away: no retry would do better).
     */
    private Future<Void> retry(InFlight commit, Throwable failure, int retry) {
        if (retry > RETRIES || !lostConnection(failure) || commit.answered() || stopping) {
            return Future.failedFuture(failure);
        }
        LOG.infof("group commit of %d events lost its connection (%s); retry %d on another one",
                commit.batch.size(), failure.getMessage(), retry);
        closeKept(); // the kept connections most likely died with it
        Future<SqlConnection> acquired = pool.getConnection();
        return attempt(commit, acquired, true)
                .recover(next -> acquired.failed() ? Future.failedFuture(next) : retry(commit, next, retry + 1));
    }

    /**
     * One try of the commit: the events whose outcome is not known yet (a split that failed midway knows a prefix),
     * written on the connection when it comes; kept afterwards when the try succeeded, closed when it failed.
     */
    private Future<Void> attempt(InFlight commit, Future<SqlConnection> acquired, boolean afterUnknownOutcome) {
        return acquired.compose(connection -> {
            if (commit.answered()) {
                // Timed out while waiting for a connection: its senders already have a 503. Writing now would only
                // hold the commit slot behind a database that is slow or gone.
                connection.close();
                return Future.failedFuture("timed out before a connection was available");
            }
            commit.connection.set(connection);
            String sql = afterUnknownOutcome ? INSERT_BATCH_AFTER_UNKNOWN_OUTCOME : INSERT_BATCH;
            return write(commit, connection, sql, commit.firstUnknown(), commit.batch.size()).andThen(done -> {
                if (done.succeeded()) {
                    keep(connection);
                } else if (lostConnection(done.cause())) {
                    commit.lost.add(connection); // closed when the commit ends (see retry)
                } else {
                    connection.close(); // a failed or timed-out connection may be broken: take a new one
                }
            });
        });
    }

    /**
     * Writes events [from, to) of the commit in one statement ({@code sql}) and records their outcomes. A statement
     * refused for its data is split in halves, written one after the other on the same connection (a statement error
     * ends only its own implicit transaction); a single event refused alone is NOT_STORABLE. Any other failure fails
     * the future, leaving the outcomes of the events not written yet unknown (FAILED, unless a retry learns them).
     */
    private Future<Void> write(InFlight commit, SqlConnection connection, String sql, int from, int to) {
        if (from == to) {
            return Future.succeededFuture();
        }
        Tuple arrays;
        try {
            arrays = toArrays(commit.batch.subList(from, to));
        } catch (RuntimeException e) {
            LOG.errorf(e, "could not prepare a group commit of %d events", to - from);
            return Future.failedFuture(e);
        }
        return connection.preparedQuery(sql).execute(arrays).transform(done -> {
            if (done.succeeded()) {
                record(commit, from, to, done.result());
                return Future.succeededFuture();
            }
            if (!refusedForItsData(done.cause()) || commit.answered()) {
                return Future.failedFuture(done.cause());
            }
            if (to - from == 1) {
                IncomingEvent e = commit.batch.get(from).event;
                LOG.warnf("tenant %s event %s refused by PostgreSQL for its own data, answered not_storable: %s",
                        e.tenantId(), e.eventId(), done.cause().getMessage());
                commit.outcomes[from] = StoreOutcome.NOT_STORABLE;
                return Future.succeededFuture();
            }
            if (to - from == commit.batch.size()) { // once per commit, not at every level of the split
                LOG.warnf("group commit of %d events refused for its data, splitting it to isolate the cause: %s",
                        to - from, done.cause().getMessage());
            }
            int middle = (from + to) >>> 1;
            return write(commit, connection, sql, from, middle)
                    .compose(v -> write(commit, connection, sql, middle, to));
        });
    }

    /**
     * A refusal that belongs to the data of some event(s), not to the database or the connection: SQLSTATE class 22
     * (data exception: a U+0000 in text, 22021, or jsonb, 22P05; a value out of range or of the wrong form), 23
     * (integrity constraint violation: a CHECK, a unique key other than the dedupe key, whose conflict ON CONFLICT
     * handles; a foreign key) and 54 (program limit exceeded: a value too large for an index or jsonb). Splitting
     * finds the event that causes it; the others commit. Never split, because every event would be refused alike and
     * a sender told to stop would lose them all: 42 (a statement that does not match the schema) and 23502 (NOT
     * NULL: every value the ingress builds is non-null, so only a column the statement does not know, added by a
     * migration, can be null). Nor connection failures, class 08; 40 (serialization failure, deadlock: transient), 53
     * (out of disk, memory or connections), 57 (operator intervention, shutdown), 58/XX (system). Those fail the
     * commit with 503.
     */
    static boolean refusedForItsData(Throwable failure) {
        if (!(failure instanceof DatabaseException db) || db.getSqlState() == null) {
            return false;
        }
        String state = db.getSqlState();
        return state.startsWith("22") || state.startsWith("23") && !state.equals(NOT_NULL_VIOLATION)
                || state.startsWith("54");
    }

    /**
     * The connection failed under the commit before PostgreSQL answered it: closed or reset (a kept connection that
     * died while idle, a PostgreSQL restart, a network cut), not established, or ended by PostgreSQL itself (class 08,
     * and 57P01..57P05: shutdown, crash, start-up, idle-session timeout). Not: any other answer from PostgreSQL, which
     * is the statement's own outcome, and not a fault of ours (a RuntimeException other than Vert.x's), which would
     * fail again.
     */
    static boolean lostConnection(Throwable failure) {
        if (failure instanceof DatabaseException db) {
            String state = db.getSqlState();
            return state != null && (state.startsWith("08") || state.startsWith("57P0"));
        }
        return !(failure instanceof RuntimeException) || failure instanceof VertxException;
    }

    /** Closes every connection kept between commits: the next commits take new ones from the pool. */
    private void closeKept() {
        SqlConnection connection;
        while ((connection = takeKept()) != null) {
            connection.close();
        }
    }

    private SqlConnection takeKept() {
        SqlConnection connection = kept.poll();
        if (connection != null) {
            keptCount.decrementAndGet();
        }
        return connection;
    }

    /** Keeps a connection that just worked, up to one per commit slot; any more go back to the pool. */
    private void keep(SqlConnection connection) {
        if (!stopping && keptCount.incrementAndGet() <= maxConcurrentCommits) {
            kept.add(connection);
        } else {
            keptCount.decrementAndGet();
            connection.close();
        }
    }

    /**
     * Whether a commit would reach PostgreSQL now, as readiness asks it (the pool alone can say yes while the kept
     * connections are dead, and no while a pool busy with other queries stands beside a kept connection that works):
     * yes at once when a commit succeeded within {@code fresh} and none failed since; else {@code SELECT 1} where
     * the next commit would run, on a kept connection, then through the pool. A kept connection that fails the probe
     * is closed (held out of the pool until the pool's probe ended, so the pool cannot lend it straight back), and
     * the next commit does not meet it: after an outage the probes find the dead connections before any event does.
     */
    public Future<Void> probe(Duration fresh) {
        if (lastCommitSucceeded && System.nanoTime() - lastCommitNanos < fresh.toNanos()) {
            return Future.succeededFuture();
        }
        SqlConnection connection = takeKept();
        if (connection == null) {
            return pool.query("SELECT 1").execute().mapEmpty();
        }
        return connection.query("SELECT 1").execute().transform(done -> {
            if (done.succeeded()) {
                keep(connection);
                return Future.succeededFuture();
            }
            return pool.query("SELECT 1").execute().<Void>mapEmpty().andThen(pooled -> connection.close());
        });
    }

    /**
     * Answers FAILED to every event older than the write timeout: queued ones are dropped from the queue, and a
     * commit on the wire has its connection closed, which fails the statement and frees its slot. An event whose
     * commit lands after its 503 is found by the sender's retry (200), never stored twice.
     */
    private void sweep() {
        long now = System.nanoTime();
        for (InFlight commit : inFlight) {
            if (now - commit.startedNanos > writeTimeoutNanos && !commit.answered()) {
                LOG.warnf("group commit of %d events not answered within %d ms; reporting them as not stored",
                        commit.batch.size(), writeTimeoutNanos / 1_000_000);
                // Even the events a split had already stored: their answers are given together, and a 503 for a
                // stored event is safe (the sender's retry is answered 200), a 202 for an unknown one is not.
                commit.batch.forEach(p -> p.answer(StoreOutcome.FAILED));
                SqlConnection connection = commit.connection.get();
                if (connection != null) {
                    connection.close();
                }
            }
        }
        for (Pending p : pending) {
            if (now - p.enqueuedNanos > writeTimeoutNanos && pending.remove(p)) {
                p.answer(StoreOutcome.FAILED);
            }
        }
    }

    private static Tuple toArrays(List<Pending> batch) {
        return BatchArrays.of(batch.size(), i -> batch.get(i).event);
    }

    /** Events [from, to) were written: those the statement returned are stored, the others were duplicates. */
    private static void record(InFlight commit, int from, int to, RowSet<Row> inserted) {
        Set<String> stored = new HashSet<>(inserted.rowCount() * 2);
        for (Row row : inserted) {
            stored.add(key(row.getString(0), row.getString(1)));
        }
        for (int i = from; i < to; i++) {
            IncomingEvent e = commit.batch.get(i).event;
            commit.outcomes[i] = stored.contains(key(e.tenantId(), e.eventId())) ? StoreOutcome.STORED
                    : StoreOutcome.DUPLICATE;
        }
    }

    private static String key(String tenantId, String eventId) {
        // Tenant ids cannot contain a newline (their pattern forbids it), so the pair is unambiguous.
        return tenantId + '\n' + eventId;
    }
}
