/**
 * The server process around the capabilities: start-up checks of the configuration (every key, its bound, its value;
 * placeholder secrets), request ids and log context, the management port (/q/*, /control, /status apart from the
 * webhook port), the shutdown gate, and the retention job (one for every table; each table's owner writes its batch
 * delete). May depend on every capability; nothing depends on ops.
 */
package io.webhookbuffer.ops;
