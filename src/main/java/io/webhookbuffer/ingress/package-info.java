/**
 * The ingest endpoint {@code POST /webhook/{tenantId}}: the edge checks before the sender is authenticated
 * ({@link io.webhookbuffer.ingress.IngressGate}: request head, tenant lookup, size limits and the replica's budget for
 * bodies in flight, all before the body is read), then signature verification over the raw bytes, the dedupe key, and
 * the tenant's actor; it only turns outcomes into HTTP. Runs on the event loop and never blocks. May depend on:
 * verify, tenant, actor (its API), queue (the event record), usage (in-memory counts), common.
 */
package io.webhookbuffer.ingress;
