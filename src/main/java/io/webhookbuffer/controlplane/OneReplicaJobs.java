package io.webhookbuffer.controlplane;

import java.time.Duration;

import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * One replica per interval for a periodic job: every replica's scheduler fires, and only the one that moves the
 * job's claimed_until forward from the past (one atomic statement) runs it. A replica that dies mid-run leaves the
 * claim to expire; the next interval runs elsewhere.
 */
@ApplicationScoped
public class OneReplicaJobs {

    private static final Logger LOG = Logger.getLogger(OneReplicaJobs.class);

    static final String CLAIM = """
            INSERT INTO job_claims (name, claimed_until) VALUES ($1, now() + $2 * interval '1 millisecond')
            ON CONFLICT (name) DO UPDATE SET claimed_until = EXCLUDED.claimed_until
                WHERE job_claims.claimed_until <= now()
            RETURNING name""";

    private final Pool pool;

    public OneReplicaJobs(Pool pool) {
        this.pool = pool;
    }

    /**
     * True when this replica runs the job now. The claim lasts 90% of the interval, so a next run that fires a little
     * early is not turned away.
     */
    public Uni<Boolean> claim(String job, Duration interval) {
        long millis = interval.toMillis() - interval.toMillis() / 10;
        return pool.preparedQuery(CLAIM).execute(Tuple.of(job, millis)).map(rows -> rows.rowCount() == 1);
    }

    /**
     * A scheduled run: {@code work} runs when this replica claims the job. Failure policy: a failed run is logged and
     * the next interval tries again; it never fails the scheduler.
     */
    public Uni<Void> runIfClaimed(String job, Duration interval, Supplier<Uni<?>> work) {
        return claim(job, interval)
                .flatMap(mine -> mine ? work.get().replaceWithVoid() : Uni.createFrom().voidItem())
                .onFailure().invoke(f -> LOG.warnf("%s run failed, next in %s: %s", job, interval, f.getMessage()))
                .onFailure().recoverWithNull().replaceWithVoid();
    }
}
