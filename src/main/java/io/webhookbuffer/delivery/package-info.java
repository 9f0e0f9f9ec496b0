/**
 * Delivery to the origin: one drainer per tenant across the cluster (a fenced lease in PostgreSQL), batches of the
 * oldest rows POSTed to {@code {origin}/internal/webhooks/batch}, capped exponential backoff with jitter, bisection of
 * refused batches, dead letters. Woken by the tenant's actor when an event is stored; a periodic sweep finds tenants
 * with pending rows that nobody drains (after a restart or a crashed replica). May depend on: queue, tenant, usage
 * (counts), egress (the origin client and trust rules), trace (the batch's span), common.
 */
package io.webhookbuffer.delivery;
