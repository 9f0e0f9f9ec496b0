/**
 * Local mode: real PostgreSQL and Redis for a laptop or a test run when none is configured. Never active in the
 * prod profile. May depend on: nothing in the application (it runs while configuration is being built).
 */
package io.webhookbuffer.local;
