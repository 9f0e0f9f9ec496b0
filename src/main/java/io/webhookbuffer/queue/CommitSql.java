package io.webhookbuffer.queue;

/**
 * The group commit's statements ({@link GroupCommitWriter}) and the tenants' commit locks they take, which the dead
 * letters' replay takes too ({@link DeadLetterStore}).
 */
public final class CommitSql {

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
                FROM unnest($1::text[], $2::text[], $3::bytea[], $4::text[], $5::text[], $6::timestamptz[],
                            $7::text[])
                     AS t(tenant_id, event_id, body, content_type, headers, received_at, trace_parent)
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
            INSERT INTO event_queue (tenant_id, event_id, body, content_type, headers, received_at, next_attempt_at,
                                     trace_parent)
            SELECT i.tenant_id, i.event_id, i.body, i.content_type, i.headers::jsonb, i.received_at, i.received_at,
                   i.trace_parent
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
    public static final String INSERT_BATCH = CLAIM + QUEUE_INSERT;

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

    private CommitSql() {
    }
}
