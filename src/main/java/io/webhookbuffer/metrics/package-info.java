/**
 * Micrometer meters (exported at /q/metrics): every name in {@link io.webhookbuffer.metrics.MetricNames}; the
 * listener ports of ingress, queue and delivery implemented with meters registered once; gauges over the backlog
 * snapshot, breakers, Redis and readiness. Nothing imports metrics.
 * May depend on: ingress, verify, actor, ratelimit, queue, delivery, health (their public types), common, Micrometer.
 */
package io.webhookbuffer.metrics;
