/**
 * Tracing (OpenTelemetry, docs/operations.md "Tracing"): the spans of an event's way, the ingest span (one per request
 * whose signature verified: a refused request costs none), the group commit's span (linked to the ingest spans it
 * stored) and each delivery batch's span (linked to the ingest span of every event it carries), the W3C
 * {@code traceparent} text stored with each event, and the sampler that keeps a batch's span exactly when one of the
 * events it links was sampled. Off unless an OTLP endpoint is configured ({@link TracingSwitch}); off, every call here
 * returns a shared no-op at once. Nothing here blocks: a span ends into the SDK's batch processor, whose exporter runs
 * on threads of its own. Never an attribute with a secret, a signature or a body. May depend on: common, OpenTelemetry.
 */
package io.webhookbuffer.trace;
