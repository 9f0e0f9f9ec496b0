/**
 * Operations: start-up checks of the configuration (every key, its bound, its value), request ids and log context,
 * the management port (/q/*, /control, /status apart from the webhook port), the /status page and its sign-in. May
 * depend on every capability; nothing depends on ops.
 */
package io.webhookbuffer.ops;
