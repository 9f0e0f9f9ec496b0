/**
 * The ingest endpoint {@code POST /webhook/{tenantId}}: path and size checks, tenant lookup, signature verification
 * over the raw bytes, the dedupe key, then the tenant's actor; it only turns outcomes into HTTP. Runs on the event
 * loop and never blocks. May depend on: verify, tenant, actor (its API), queue (the event record), usage (in-memory
 * counts), common.
 */
package io.webhookbuffer.ingress;
