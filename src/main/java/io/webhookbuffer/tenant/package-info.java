/**
 * The tenant read model and the directory that ingress reads it through: Caffeine (refresh-ahead, short TTL)
 * in front of PostgreSQL, invalidated on every replica by Redis pub/sub, with an optional pull-through from the
 * origin. The write side lives in controlplane. May depend on: common, verify (provider names), egress (the origin
 * pull's client).
 */
package io.webhookbuffer.tenant;
