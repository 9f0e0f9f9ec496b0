package io.webhookbuffer.queue;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

import jakarta.enterprise.context.ApplicationScoped;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;

/** Read-only views of the queue for operators. */
@ApplicationScoped
public class QueueInspector {

    /**
     * One tenant's depth from the queue_depth counters, its head (the next row to deliver, the first by id: its
     * received_at and when it may be tried) by one probe of the (tenant_id, id) primary key, the paused flag and the
     * live lease's holder by their primary keys: the same figures as the backlog snapshot's row, at a cost that does
     * not grow with the tenant's backlog.
     */
    static final String BACKLOG = """
            SELECT %s AS depth, h.received_at AS oldest, h.next_attempt_at AS next_attempt,
                   %s AS paused,
                   (SELECT holder FROM drain_leases WHERE tenant_id = $1 AND expires_at > now()) AS holder
            FROM (SELECT 1) one
            LEFT JOIN LATERAL (SELECT received_at, next_attempt_at FROM event_queue
                               WHERE tenant_id = $1 ORDER BY id LIMIT 1) h ON true""".formatted(TenantSql.depth("$1"),
            TenantSql.paused("$1"));

    private final Pool pool;

    public QueueInspector(Pool pool) {
        this.pool = pool;
    }

    public Uni<Backlog> backlog(String tenantId) {
        return pool.preparedQuery(BACKLOG).execute(Tuple.of(tenantId)).map(rows -> {
            Row row = rows.iterator().next();
            long depth = row.getLong("depth");
            OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
            OffsetDateTime oldest = row.getOffsetDateTime("oldest");
            long age = oldest == null ? 0 : Math.max(0, Duration.between(oldest, now).toSeconds());
            OffsetDateTime next = row.getOffsetDateTime("next_attempt");
            boolean paused = row.getBoolean("paused");
            String holder = depth == 0 ? null : row.getString("holder");
            return new Backlog(depth, age, next, Backlog.state(depth, paused, next, holder, now), paused, holder);
        });
    }
}
