/**
 * Usage counting for billing: per-tenant counters in memory on the ingest and delivery paths (no I/O per event),
 * flushed on a schedule as additive upserts into hourly buckets in PostgreSQL; billing periods (pure). The snapshot
 * push to the control plane lives in controlplane. May depend on: common.
 */
package io.webhookbuffer.usage;
