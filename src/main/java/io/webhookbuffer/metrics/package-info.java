/**
 * Micrometer meters over the other packages' counters (exported at /q/metrics). Nothing imports metrics.
 * May depend on: queue, actor, delivery, Micrometer.
 */
package io.webhookbuffer.metrics;
