/**
 * The durable queue in PostgreSQL: the group-committed write of queue row + dedupe row in one statement, and the
 * retention of dedupe records. SQL is explicit, one named constant per statement. May depend on: common.
 */
package io.webhookbuffer.queue;
