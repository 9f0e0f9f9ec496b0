/**
 * The start-up warm-up: before readiness, the replica sends itself signed requests for a tenant that exists only in
 * its memory, through its own HTTP server, verification, actor and the real group-commit statement (rolled back), so
 * the JIT has compiled the hot path before the first provider's request arrives. May depend on: actor, tenant, usage,
 * common.
 */
package io.webhookbuffer.warmup;
