/**
 * Sliding-window rate limiting (pure: no framework types). The window is a ring of one-second buckets
 * with subtract-on-evict, driven by a caller-supplied second counter so tests advance time by hand; a tenant's window
 * shared by replicas is taken in leases ({@link io.webhookbuffer.ratelimit.LeasedWindow}), whose I/O the caller does
 * (through {@code ratelimit.shared}, the Redis side). May depend on: nothing.
 */
package io.webhookbuffer.ratelimit;
