/**
 * Provider signature schemes (pure: JDK crypto and Jackson's parser only; no Quarkus, no I/O). {@link
 * io.webhookbuffer.verify.SignatureScheme} is the declarative scheme most providers are presets of ({@link
 * io.webhookbuffer.verify.Providers}); Twilio, GitLab's token, Twitch, Mailgun's body-signed token and the public-key
 * schemes (SendGrid's ECDSA, Discord's and Standard Webhooks' Ed25519: {@link io.webhookbuffer.verify.PublicKeys})
 * have their own code, Slack, Zoom, Discord, Twitch and Xero add a signed handshake, Asana an unsigned one that sets
 * the secret ({@link io.webhookbuffer.verify.AsanaHandshake}), Meta, X and Dropbox a GET check
 * ({@link io.webhookbuffer.verify.QueryHandshake}), and a tenant may define its own ({@link
 * io.webhookbuffer.verify.CustomSchemes}). Every scheme verifies the raw body bytes against every active secret of
 * the tenant in constant time, checks signed timestamps against the receive
 * time, and fails closed on any malformed input. May depend on: common.
 */
package io.webhookbuffer.verify;
