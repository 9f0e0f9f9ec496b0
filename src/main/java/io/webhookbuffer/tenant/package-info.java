/**
 * The tenant read model and the directory that ingress reads it through: Caffeine (refresh-ahead, short TTL)
 * in front of PostgreSQL, invalidated on every replica by Redis pub/sub, with an optional pull-through from the
 * origin. Secrets are opened once per load (secrets), so the cache holds them in clear in memory only. The write side
 * lives in controlplane. May depend on: common, secrets, verify (provider names), egress (the origin pull's client).
 */
package io.webhookbuffer.tenant;
