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
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.SqlConnection;
import io.vertx.sqlclient.Tuple;
import io.webhookbuffer.trace.BatchTrace;
import io.webhookbuffer.trace.Tracing;

/**
 * Writes events to PostgreSQL with group commit: events that arrive while a commit is in flight share the next
 * one, whatever their tenant, so throughput is bound by commits, not by events. There is no timer and no
 * waiting for a batch to fill: an event on an idle writer is written at once.
 *
 * <p>Each commit is ONE statement (see {@link CommitSql#INSERT_BATCH}): the dedupe insert and the queue insert succeed
 * or fail together, so a failed write leaves nothing that would make the sender's retry look like a duplicate.
 *
 * <p>Failure policy: a commit that PostgreSQL refuses for its data ({@link CommitFailures#refusedForItsData}) is split
 * in halves, recursively, until the events that cause it are alone: those are answered {@link
 * StoreOutcome#NOT_STORABLE} (422, storing them again would fail again) and every other event gets its true answer, so
 * one tenant's bad input never costs its neighbours a 503. A commit whose connection was lost before PostgreSQL
 * answered is tried again on another connection ({@link #retry}). Any other failure fails closed: every event not known
 * to be stored is answered FAILED (503 + Retry-After). The split and the retry run only after a failure; a commit that
 * succeeds is one statement and one round trip.
 */
@ApplicationScoped
public class GroupCommitWriter implements EventWriter {

    private static final Logger LOG = Logger.getLogger(GroupCommitWriter.class);
    /** Tries after a lost connection, at most (see {@link #retry}). */
    private static final int RETRIES = 3;


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

        /** How many of its events this commit stored (for its span). */
        int stored() {
            int stored = 0;
            for (StoreOutcome outcome : outcomes) {
                if (outcome == StoreOutcome.STORED) {
                    stored++;
                }
            }
            return stored;
        }

        /** Answered already: by the sweeper (timed out), never partly. */
        boolean answered() {
            return batch.get(0).answered.get();
        }
    }

    /**
     * Most events in one group commit (one INSERT statement). A commit takes what arrived while the last was in
     * flight (5 to 26 events in the benchmarks, docs/performance.md), and 50 a commit already cut the per-event cost
     * five-fold (ARCHITECTURE.md's cost table): a larger cap saves nothing, and only a backlog ever reaches it. It
     * bounds the statement's parameters and the commit span's links (application.properties). The knob for a
     * database that could take more is {@code buffer.queue.max-concurrent-commits}. Was {@code
     * buffer.queue.max-batch-size}, retired (ops.RetiredSettings).
     */
    static final int MAX_BATCH_SIZE = 512;

    private final Pool pool;
    private final KeptConnections kept;
    /**
     * When the last commit ended, and whether it succeeded: readiness needs no query while commits succeed (see
     * {@link #probe}). Two volatile writes per commit, no round trip.
     */
    private volatile long lastCommitNanos;
    private volatile boolean lastCommitSucceeded;
    private final int maxConcurrentCommits;
    private final long writeTimeoutNanos;
    private final ConcurrentLinkedQueue<Pending> pending = new ConcurrentLinkedQueue<>();
    private final Set<InFlight> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicInteger commitsInFlight = new AtomicInteger();
    private final BatchStats stats = new BatchStats();
    private final CommitListener listener;
    private final Tracing tracing;
    private volatile boolean stopping;

    public GroupCommitWriter(Pool pool, Vertx vertx, QueueConfig config, CommitListener listener, Tracing tracing) {
        this.pool = pool;
        this.tracing = tracing;
        this.listener = listener;
        this.maxConcurrentCommits = config.maxConcurrentCommits();
        this.kept = new KeptConnections(pool, maxConcurrentCommits);
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
        kept.stop();
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
            List<Pending> batch = new ArrayList<>(Math.min(MAX_BATCH_SIZE, 64));
            Pending p;
            while (batch.size() < MAX_BATCH_SIZE && (p = pending.poll()) != null) {
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
        BatchTrace trace = tracing.commit(batch, pending -> pending.event.traceParent());
        SqlConnection held = kept.take();
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
                    trace.committed(result.succeeded(), commit.stored());
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
     * Failure policy: a commit whose connection was lost ({@link CommitFailures#lostConnection}) is tried again on
     * another connection from the pool, within the same write timeout (the sweeper still answers 503 when it passes),
     * so that a kept connection that died while no event came (PostgreSQL restarted, the network blinked) costs no
     * sender a 503. The earlier try may have committed: the retry's statement is idempotent and tells which events it
     * stored (see {@link CommitSql#INSERT_BATCH_AFTER_UNKNOWN_OUTCOME}). The lost connection is held until the commit
     * ends, never handed back to the pool at once: the pool learns of its death only after the failure reaches us, and
     * would lend it straight back to the retry (seen here: eight retries in one millisecond on one dead connection). A
     * restart ends the pool's idle connections too, and the pool may lend one it has not heard of yet (seen in
     * CommitRecoveryTests: a second retry was needed), so a retry whose own connection is lost is retried as well,
     * {@link #RETRIES} times in all; each such failure is immediate. It stops at once when the pool cannot get a
     * connection at all (the database refuses or is away: no retry would do better).
     */
    private Future<Void> retry(InFlight commit, Throwable failure, int retry) {
        if (retry > RETRIES || !CommitFailures.lostConnection(failure) || commit.answered() || stopping) {
            return Future.failedFuture(failure);
        }
        LOG.infof("group commit of %d events lost its connection (%s); retry %d on another one",
                commit.batch.size(), failure.getMessage(), retry);
        kept.closeAll(); // the kept connections most likely died with it
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
            String sql = afterUnknownOutcome ? CommitSql.INSERT_BATCH_AFTER_UNKNOWN_OUTCOME : CommitSql.INSERT_BATCH;
            return write(commit, connection, sql, commit.firstUnknown(), commit.batch.size()).andThen(done -> {
                if (done.succeeded()) {
                    kept.keep(connection);
                } else if (CommitFailures.lostConnection(done.cause())) {
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
            if (!CommitFailures.refusedForItsData(done.cause()) || commit.answered()) {
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
     * Whether a commit would reach PostgreSQL now, as readiness asks it (the pool alone can say yes while the kept
     * connections are dead, and no while a pool busy with other queries stands beside a kept connection that works):
     * yes at once when a commit succeeded within {@code fresh} and none failed since; else {@code SELECT 1} where
     * the next commit would run ({@link KeptConnections#probe}). After an outage the probes find the dead kept
     * connections before any event does.
     */
    public Future<Void> probe(Duration fresh) {
        if (lastCommitSucceeded && System.nanoTime() - lastCommitNanos < fresh.toNanos()) {
            return Future.succeededFuture();
        }
        return kept.probe();
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
