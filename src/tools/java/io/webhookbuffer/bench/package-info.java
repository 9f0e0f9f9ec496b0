/**
 * The benchmark: a load generator ({@link io.webhookbuffer.bench.LoadGenerator}), the loss check and summary
 * ({@link io.webhookbuffer.bench.BenchReport}), run by {@code bench/run.sh}; and the HTTP-ceiling endpoint
 * ({@link io.webhookbuffer.bench.CeilingResource}), off unless {@code buffer.bench.ceiling-endpoint} is set. It lives in
 * src/tools: compiled with the tests and into the local build ({@code mvn -B -Plocal package}), never into the
 * service's artifact. The command-line parts run on the local build's classpath without booting Quarkus. Nothing in
 * the service depends on this package; it depends only on common, and on controlplane.CommandSignature to sign the
 * commands that provision its tenants.
 */
package io.webhookbuffer.bench;
