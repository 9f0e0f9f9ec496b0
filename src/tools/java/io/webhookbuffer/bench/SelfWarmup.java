package io.webhookbuffer.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.net.URI;
import java.nio.file.Files;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.RequestOptions;

/**
 * The generator's own warm-up, away from what it measures. A fresh JVM spends its first seconds in the JIT; the
 * generator shares the two cores with the buffer, so a cold generator would charge its compile time to the buffer's
 * first seconds after readiness, the very figure a production-shape run reports. It sends the same load (signing,
 * framing, connections) to a server inside its own JVM that reads each body and answers 202, then waits for the
 * buffer's readiness, which the script only starts once the generator is warm.
 */
final class SelfWarmup {

    private static final long POLL_MS = 50;

    private SelfWarmup() {
    }

    /** Sends {@code settings}' load for {@code --self-warmup} to a server in this JVM, then touches --warmed-file. */
    static void run(Vertx vertx, LoadGenerator.Settings settings, PrintWriter out) throws Exception {
        HttpServer server = vertx.createHttpServer().requestHandler(request -> request.body()
                .onComplete(body -> request.response().setStatusCode(202).end("{\"status\":\"buffered\"}")));
        int port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
        try {
            LoadResult warm = new LoadGenerator(settings.selfWarmupAgainst(URI.create("http://127.0.0.1:" + port),
                    settings.selfWarmup()), new PrintWriter(Writer.nullWriter())).load(vertx);
            out.printf("self-warm-up: %.0f requests/s for %d s against this JVM%n", warm.requestsPerSecond(),
                    settings.selfWarmup().toSeconds());
        } finally {
            server.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
        if (settings.warmedFile() != null) {
            Files.writeString(settings.warmedFile(), Long.toString(System.currentTimeMillis()));
        }
    }

    /**
     * Polls {@code {url}/q/health/ready} every 50 ms until it answers 200; returns when it did (epoch ms). Fails
     * after {@code --await-ready}.
     */
    static long awaitReady(Vertx vertx, LoadGenerator.Settings settings, PrintWriter out) throws Exception {
        URI url = settings.url();
        HttpClient client = vertx.createHttpClient();
        long deadline = System.nanoTime() + settings.awaitReady().toNanos();
        try {
            while (System.nanoTime() < deadline) {
                if (ready(client, url)) {
                    long at = System.currentTimeMillis();
                    out.printf("the target answered ready at %d%n", at);
                    return at;
                }
                Thread.sleep(POLL_MS);
            }
        } finally {
            client.close();
        }
        throw new IOException("nothing answered ready at " + url + " within " + settings.awaitReady().toSeconds()
                + " s");
    }

    private static boolean ready(HttpClient client, URI url) throws InterruptedException {
        RequestOptions get = new RequestOptions().setMethod(HttpMethod.GET).setHost(url.getHost())
                .setPort(url.getPort() < 0 ? 80 : url.getPort()).setURI("/q/health/ready").setTimeout(1000);
        try {
            int status = client.request(get).compose(r -> r.send()).compose(r -> r.body().map(b -> r.statusCode()))
                    .toCompletionStage().toCompletableFuture().get(2, TimeUnit.SECONDS);
            return status == 200;
        } catch (ExecutionException | TimeoutException e) {
            return false; // not listening yet, or not answering: poll again
        }
    }
}
