package io.webhookbuffer.testsupport;

import static org.awaitility.Awaitility.await;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.vertx.mutiny.sqlclient.Pool;

/**
 * The service's database pool held busy: a JDBC connection takes an advisory lock, and as many queries as the pool
 * lends wait for it, so every pooled connection but the commit path's kept one is busy and one more query waits in the
 * pool's queue. {@link #close()} lets them all finish and waits for it, leaving the pool as it was found.
 */
public final class BusyPool implements AutoCloseable {

    private final Connection holder;
    private final DataSource direct;
    private final int size;
    private final AtomicInteger finished = new AtomicInteger();

    private BusyPool(Connection holder, DataSource direct, int size) {
        this.holder = holder;
        this.direct = direct;
        this.size = size;
    }

    /** Holds {@code pool} (of {@code size} connections) busy until closed; {@code lock} is this test's own number. */
    public static BusyPool hold(DataSource direct, Pool pool, int size, long lock) throws SQLException {
        BusyPool busy = new BusyPool(direct.getConnection(), direct, size);
        busy.holder.setAutoCommit(false);
        try (Statement st = busy.holder.createStatement()) {
            st.execute("SELECT pg_advisory_xact_lock(" + lock + ")");
        }
        for (int i = 0; i < size; i++) {
            pool.query("SELECT pg_advisory_xact_lock(" + lock + ")").execute()
                    .subscribe().with(rows -> busy.finished.incrementAndGet(), f -> { });
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> busy.waitingForTheLock() == size - 1);
        return busy;
    }

    /** The held queries that finished: 0 while the pool is held. */
    public int finished() {
        return finished.get();
    }

    @Override
    public void close() throws SQLException {
        try {
            holder.rollback();
        } finally {
            holder.close();
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> finished.get() == size);
    }

    private long waitingForTheLock() {
        return Db.count(direct, "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                + " AND wait_event = 'advisory' AND datname = current_database()");
    }
}
