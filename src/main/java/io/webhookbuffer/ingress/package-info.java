/**
 * The ingest endpoint {@code POST /webhook/{tenantId}}, the event's way in: the edge checks before the sender is
 * authenticated ({@link io.webhookbuffer.ingress.IngressGate}: request head, tenant lookup, size limits and the
 * replica's budget for bodies in flight, all before the body is read), then the decision
 * ({@link io.webhookbuffer.ingress.IngestService}: signature verification over the raw bytes, in this one place,
 * handshake, dedupe key, usage counts, the tenant's actor), an {@link io.webhookbuffer.ingress.IngestAnswer} that
 * carries its status, body and metric label, which {@link io.webhookbuffer.ingress.IngestRoute} sends from the gate's
 * Vert.x route ({@link io.webhookbuffer.ingress.AnswerWriter}: reported, kept, written).
 * Runs on the event loop and never blocks. May depend on: verify, tenant, actor (its API), queue
 * (the event record), usage (in-memory counts), trace (the ingest span), common.
 */
package io.webhookbuffer.ingress;
