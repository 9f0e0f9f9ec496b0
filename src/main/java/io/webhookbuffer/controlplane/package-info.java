/**
 * The control-plane seam, commands down: {@code /control/...} endpoints authenticated by a signed timestamp, a
 * nonce claimed once in Redis and an HMAC over "{timestamp}.{nonce}.{rawBody}"; tenant provisioning (Panache on the
 * tenants table); one problem+json error vocabulary. Nothing depends on controlplane.
 * May depend on: tenant, verify (provider names), common.
 */
package io.webhookbuffer.controlplane;
