/**
 * Operations: start-up checks of the configuration (every key, its bound, its value). May depend on every
 * capability's config; nothing depends on ops.
 */
package io.webhookbuffer.ops;
