/**
 * The start-up warm-up: before readiness, the replica sends itself signed requests for a tenant that exists only in
 * its memory, through its own HTTP server, lookup, verification, actor and the real group-commit statement (rolled
 * back), so the JIT has compiled the hot path before the first provider's request arrives; and its readiness check.
 * Confined to this package: the ingest path holds the tenant with sinks that keep nothing (ingress.Sinks) and never
 * asks whether a request is the rehearsal. May depend on: ingress (the sinks seam, the webhook port), actor (the
 * storage a sink names, forgetting the actor), queue (the group-commit statement, the event record, a quota nobody
 * reads), tenant (the tenant record), common.
 */
package io.webhookbuffer.warmup;
