/**
 * What the replicas of one deployment share through Redis to act as one: the tenants' rate windows (leases of
 * admission slots, {@link io.webhookbuffer.cluster.WindowLeases}) and the replica count that sizes them.
 * May depend on: ratelimit, common.
 */
package io.webhookbuffer.cluster;
