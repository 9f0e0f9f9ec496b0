/**
 * A tenant's rate window shared by the replicas of one deployment through Redis, beside the pure window it feeds
 * ({@link io.webhookbuffer.ratelimit.LeasedWindow}): the Redis side that grants leases of admission slots
 * ({@link io.webhookbuffer.ratelimit.shared.SharedWindows}), the replica count that sizes them, and their settings.
 * May depend on: ratelimit, common.
 */
package io.webhookbuffer.ratelimit.shared;
