/**
 * The control-plane seam. Commands down: {@code /control/...} endpoints authenticated by a signed timestamp, a nonce
 * claimed once in Redis and an HMAC (v2: over the direction, method, path and query, timestamp, nonce and body; the
 * seed's v1 over "{timestamp}.{nonce}.{rawBody}" while accept-v1, see CommandSignature), each body read by
 * ControlBodyGate within its bound (256 KiB) before any of it is authenticated; tenant provisioning and
 * steering (pause, resume, secret rotation; Panache on the tenants table, every secret sealed before it is stored);
 * the secret-handshake windows (HandshakeWindows: Asana's X-Hook-Secret, the ingest path's SecretHandshakeStore port);
 * the rotation of the key of secrets at rest (SecretsRotation); one problem+json error vocabulary. Up: full usage
 * snapshots (UsageReporter) and the lifecycle-event outbox (LifecycleOutbox), signed POSTs to
 * {@code buffer.control.url}, each run on one replica per interval (OneReplicaJobs). Nothing depends on controlplane but
 * its clients (demo control plane, CLI), which reuse its signing.
 * May depend on: tenant, secrets, verify (provider names), queue (inspection, dead letters), usage, egress (the push
 * client, the origin trust rules a command is held to), ingress (the refusals it reads, the port it implements, the
 * answer writer and the body deadline of the body gate), common.
 */
package io.webhookbuffer.controlplane;
