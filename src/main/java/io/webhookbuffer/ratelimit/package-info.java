/**
 * Sliding-window rate limiting (pure: no framework types). The window is a ring of one-second buckets
 * with subtract-on-evict, driven by a caller-supplied second counter so tests advance time by hand.
 * May depend on: nothing.
 */
package io.webhookbuffer.ratelimit;
