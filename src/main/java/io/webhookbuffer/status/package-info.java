/**
 * The /status page: what it shows (StatusBoard, from the backlog snapshot and this replica's breakers), its Qute
 * rendering, and its sign-in (a session cookie MAC'd under a key derived from {@code buffer.status.token}, and the
 * login-CSRF check). Read-only. May depend on: queue, delivery, ratelimit, health, ingress, tenant, verify (their
 * public views: a tenant this replica holds, what its sender does after a refusal), common. Nothing depends on status
 * but ops (the start-up checks read its settings).
 */
package io.webhookbuffer.status;
