/**
 * Operations: start-up checks of the configuration (every key, its bound, its value), request ids and log context,
 * the /status page. May depend on every capability; nothing depends on ops.
 */
package io.webhookbuffer.ops;
