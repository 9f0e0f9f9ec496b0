/**
 * Per-tenant actors: one logical single-threaded executor per tenant (an ordered mailbox run by whichever thread
 * finds it idle), created on demand, evicted when idle, with a bounded number of outstanding events. The actor owns
 * a tenant's decisions: dedupe (in-flight and recent ids), the sliding-window rate limit (its window shared by the
 * replicas through ratelimit.shared, on the monotonic seconds of common's clock), and handing the event to the
 * group-committed write (queue). May depend on: ratelimit, queue (the writer and the event record), tenant, common.
 */
package io.webhookbuffer.actor;
