package io.webhookbuffer.ops;

import java.time.Duration;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import jakarta.enterprise.context.ApplicationScoped;

import org.jboss.logging.Logger;

import io.quarkus.scheduler.Scheduled;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.webhookbuffer.controlplane.LifecycleStore;
import io.webhookbuffer.queue.DeadLetterStore;
import io.webhookbuffer.queue.DedupeConfig;
import io.webhookbuffer.queue.DedupeRetention;
import io.webhookbuffer.queue.QueueConfig;
import io.webhookbuffer.usage.UsageStore;

/**
 * The retention of every table that would otherwise only grow, in one job: each table's owner writes the SQL of one
 * batch (its rows, its index, what must never go), and this job runs the batches until one comes back short, table
 * by table, every {@link #INTERVAL} (5 min), on every replica (a delete that finds nothing costs one
 * index probe; two replicas deleting at once skip each other's rows or find them gone).
 *
 * <p>Failure policy: a table whose delete fails is logged and retried next run; the other tables still run. Nothing
 * here is on a request's path, and a table that grows a few more minutes harms no one.
 */
@ApplicationScoped
public class Retention {

    private static final Logger LOG = Logger.getLogger(Retention.class);

    /** One batch of one table: deletes at most {@code limit} rows older than {@code cutoff}, completes with how many. */
    @FunctionalInterface
    interface Batch {
        Uni<Integer> delete(OffsetDateTime cutoff, int limit);
    }

    /** A table's rule: what its rows are called (in the log and the result), how long they are kept, one batch. */
    record Rule(String rows, Duration kept, int batchSize, Batch batch) {
    }

    /**
     * How often the job runs. Retentions are counted in days (dedupe records four, dead letters thirty), so a few
     * minutes' lateness changes nothing, and a run that finds nothing costs one index probe per table: no deployment
     * needs another value.
     */
    static final String INTERVAL = "5m";

    /**
     * Rows removed per DELETE statement: small enough that no statement holds its locks or writes its WAL for long
     * (a few milliseconds), large enough that a day's expired rows go in a few hundred statements.
     */
    static final int BATCH = 5000;

    /**
     * Dead letters carry their bodies (up to the tenant's body limit, 1 MiB by default): fewer per statement, so that a
     * batch stays short in time and in WAL.
     */
    static final int DEAD_LETTER_BATCH = 100;

    private final List<Rule> rules;

    public Retention(DedupeRetention dedupe, DedupeConfig dedupeConfig, DeadLetterStore deadLetters,
            QueueConfig queue, UsageStore usage, LifecycleStore lifecycle) {
        int batch = BATCH;
        Duration deadLetterRetention = queue.deadLetterRetention();
        this.rules = List.of(
                new Rule("dedupe records", dedupeConfig.retention(), batch, dedupe::deleteBatch),
                new Rule("dead letters", deadLetterRetention, Math.min(batch, DEAD_LETTER_BATCH),
                        deadLetters::expireBatch),
                new Rule("usage buckets", UsageStore.RETENTION, batch, usage::expireBatch),
                // Delivered, a lifecycle event is the record of an incident: kept as long as the incident's dead letters;
                // one the control plane refused (set aside) is the record of that refusal, kept as long.
                new Rule("lifecycle events", deadLetterRetention, batch, lifecycle::expireBatch));
    }

    @Scheduled(every = INTERVAL, delayed = "30s",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    Uni<Void> scheduled() {
        return purge(OffsetDateTime.now(ZoneOffset.UTC)).replaceWithVoid();
    }

    /**
     * Applies every rule as of {@code now}, one table after the other; completes with the rows removed per table (-1
     * for a table whose delete failed, which the next run retries).
     */
    public Uni<Map<String, Long>> purge(OffsetDateTime now) {
        return Multi.createFrom().iterable(rules)
                .onItem().transformToUniAndConcatenate(rule -> purge(rule, now))
                .collect().asList()
                .map(counts -> {
                    Map<String, Long> out = new LinkedHashMap<>();
                    for (int i = 0; i < rules.size(); i++) {
                        out.put(rules.get(i).rows(), counts.get(i));
                    }
                    return out;
                });
    }

    private static Uni<Long> purge(Rule rule, OffsetDateTime now) {
        return deleteFrom(rule, now.minus(rule.kept()), 0L)
                .invoke(n -> {
                    if (n > 0) {
                        LOG.infof("retention removed %d %s older than %s", n, rule.rows(), rule.kept());
                    }
                })
                .onFailure().recoverWithItem(f -> {
                    LOG.warnf("retention of %s failed, will retry next run: %s", rule.rows(), f.getMessage());
                    return -1L;
                });
    }

    private static Uni<Long> deleteFrom(Rule rule, OffsetDateTime cutoff, long deletedSoFar) {
        return rule.batch().delete(cutoff, rule.batchSize())
                .flatMap(n -> n < rule.batchSize()
                        ? Uni.createFrom().item(deletedSoFar + n)
                        : deleteFrom(rule, cutoff, deletedSoFar + n));
    }
}
