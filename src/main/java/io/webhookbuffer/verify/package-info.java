/**
 * Provider signature schemes (pure: JDK crypto and Jackson's parser only; no Quarkus, no I/O). {@link
 * io.webhookbuffer.verify.SignatureScheme} is the declarative scheme most providers are presets of ({@link
 * io.webhookbuffer.verify.Providers}); Twilio and GitLab's token have their own code, Slack and Zoom add a handshake,
 * and a tenant may define its own ({@link io.webhookbuffer.verify.CustomSchemes}). Every scheme verifies the raw body
 * bytes against every active secret of the tenant in constant time, checks signed timestamps against the receive
 * time, and fails closed on any malformed input. May depend on: common.
 */
package io.webhookbuffer.verify;
