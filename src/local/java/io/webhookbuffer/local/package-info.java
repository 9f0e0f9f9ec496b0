/**
 * Local mode: real PostgreSQL and Redis for a laptop or a test run when none is configured. Never active in the
 * prod profile. It lives in src/local: compiled with the tests and into the local build ({@code mvn -B -Plocal
 * package}), never into the service's artifact, which carries no embedded server. May depend on: nothing in the
 * application (it runs while configuration is being built).
 */
package io.webhookbuffer.local;
