/**
 * The ingest endpoint {@code POST /webhook/{tenantId}}, the event's way in: the edge checks before the sender is
 * authenticated ({@link io.webhookbuffer.ingress.IngressGate}: request head, tenant lookup, size limits and the
 * replica's budget for bodies in flight, all before the body is read), then the admission
 * ({@link io.webhookbuffer.ingress.IngestService}: signature verification over the raw bytes, handshake, dedupe key,
 * usage counts, the tenant's actor), and {@link io.webhookbuffer.ingress.DirectIngest} (from the gate's Vert.x route,
 * the default) or {@link io.webhookbuffer.ingress.WebhookResource} (RESTEasy), which only turn the decision into HTTP.
 * Runs on the event loop and never blocks. May depend on: verify, tenant, actor (its API), queue
 * (the event record), usage (in-memory counts), common.
 */
package io.webhookbuffer.ingress;
