/**
 * The durable queue in PostgreSQL: the group-committed write of queue row + dedupe row in one statement, the batch
 * deletes of the retention of dedupe records and dead letters (run by ops.Retention), and the backlog as operators
 * see it: the snapshot, which reads the queue_depth counters that triggers on event_queue keep (migration V12), and
 * the fold that keeps those counters small. SQL is explicit, one named constant per statement. May depend on: trace
 * (the group commit's span), common.
 */
package io.webhookbuffer.queue;
