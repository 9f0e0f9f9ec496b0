/**
 * Health checks for Kubernetes' probes (/q/health/live, /ready, /started) and the Redis probe. Readiness follows
 * PostgreSQL only, as the group commit reaches it: a replica that cannot store must not get traffic; Redis is an
 * accelerator, reported, never failing readiness.
 * May depend on: Vert.x, the group commit's probe (queue), Redis.
 * Only metrics, ops and status depend on health.
 */
package io.webhookbuffer.health;
