/**
 * Per-tenant actors: one logical single-threaded executor per tenant (an ordered mailbox run by whichever thread
 * finds it idle), created on demand, evicted when idle, with a bounded number of outstanding events. The actor owns
 * a tenant's decisions: dedupe (in-flight and recent ids), the sliding-window rate limit, and handing the event to
 * the group-committed write. May depend on: ratelimit, queue, tenant, common.
 */
package io.webhookbuffer.actor;
