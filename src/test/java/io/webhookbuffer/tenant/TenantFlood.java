package io.webhookbuffer.tenant;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.webhookbuffer.testsupport.Signed;

/**
 * Random unknown tenant ids at a fixed concurrency against the running app, with readiness polled and a genuine signed
 * sender posting to a known tenant the whole time. Counts every answer by status and reason; keeps every readiness
 * status and every genuine latency. Test-only: runs its own Vert.x, so it shares nothing with the app's event loops.
 */
final class TenantFlood implements AutoCloseable {

    /** What the flood saw. */
    record Result(Map<String, Integer> floodAnswers, List<Integer> readiness, List<Integer> genuineStatuses,
            List<Long> genuineMicros, Duration elapsed, int transportErrors) {

        int count(String statusAndReason) {
            return floodAnswers.getOrDefault(statusAndReason, 0);
        }

        long genuineP99Micros() {
            List<Long> sorted = new ArrayList<>(genuineMicros);
            Collections.sort(sorted);
            return sorted.isEmpty() ? -1 : sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(sorted.size() * 0.99) - 1));
        }

        int readinessFlips() {
            return (int) readiness.stream().filter(s -> s != 200).count();
        }
    }

    private final Vertx vertx = Vertx.vertx();
    private final int port;

    TenantFlood(int port) {
        this.port = port;
    }

    /**
     * Sends {@code total} POSTs to random ids over {@code connections} connections; meanwhile polls readiness every
     * {@code pollEvery} and sends one signed event to {@code knownTenant} every {@code pollEvery}.
     */
    Result run(int total, int connections, String knownTenant, String secret, Duration pollEvery)
            throws InterruptedException {
        return run(total, connections, List.of(knownTenant), secret, pollEvery);
    }

    /** As above, the signed events going to each of {@code knownTenants} in turn. */
    Result run(int total, int connections, List<String> knownTenants, String secret, Duration pollEvery)
            throws InterruptedException {
        HttpClient flood = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port)
                .setKeepAlive(true), new PoolOptions().setHttp1MaxSize(connections));
        HttpClient side = vertx.createHttpClient(new HttpClientOptions().setDefaultHost("127.0.0.1").setDefaultPort(port),
                new PoolOptions().setHttp1MaxSize(4));
        Map<String, Integer> answers = new ConcurrentHashMap<>();
        List<Integer> readiness = Collections.synchronizedList(new ArrayList<>());
        List<Integer> genuine = Collections.synchronizedList(new ArrayList<>());
        List<Long> genuineMicros = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger errors = new AtomicInteger();
        AtomicInteger next = new AtomicInteger();
        CountDownLatch done = new CountDownLatch(total);
        long started = System.nanoTime();
        Buffer body = Buffer.buffer("{\"flood\":true}");
        Runnable[] send = new Runnable[1];
        send[0] = () -> {
            if (next.getAndIncrement() >= total) {
                return;
            }
            String id = "u-" + UUID.randomUUID().toString().replace("-", "");
            flood.request(new RequestOptions().setMethod(HttpMethod.POST).setURI("/webhook/" + id)
                    .putHeader("Content-Type", "application/json").putHeader("X-Signature", "00"))
                    .compose(request -> request.send(body))
                    .compose(response -> response.body().map(b -> response.statusCode() + " " + reason(b)))
                    .onComplete(answer -> {
                        if (answer.succeeded()) {
                            answers.merge(answer.result(), 1, Integer::sum);
                        } else {
                            errors.incrementAndGet();
                        }
                        done.countDown();
                        send[0].run();
                    });
        };
        for (int i = 0; i < connections; i++) {
            vertx.runOnContext(v -> send[0].run());
        }
        AtomicInteger polls = new AtomicInteger();
        long poller = vertx.setPeriodic(pollEvery.toMillis(), id -> {
            polls.incrementAndGet();
            side.request(HttpMethod.GET, "/q/health/ready").compose(r -> r.send().compose(res -> res.body()
                    .map(b -> res.statusCode()))).onComplete(s -> readiness.add(s.succeeded() ? s.result() : -1));
            String knownTenant = knownTenants.get((polls.get() - 1) % knownTenants.size());
            byte[] event = ("{\"genuine\":\"" + UUID.randomUUID() + "\"}").getBytes(StandardCharsets.UTF_8);
            long sent = System.nanoTime();
            side.request(new RequestOptions().setMethod(HttpMethod.POST).setURI("/webhook/" + knownTenant)
                    .putHeader("Content-Type", "application/json")
                    .putHeader("X-Signature", Signed.signature(secret, event)))
                    .compose(r -> r.send(Buffer.buffer(event)).compose(res -> res.body().map(b -> res.statusCode())))
                    .onComplete(s -> {
                        genuineMicros.add((System.nanoTime() - sent) / 1000);
                        genuine.add(s.succeeded() ? s.result() : -1);
                    });
        });
        boolean finished = done.await(5, TimeUnit.MINUTES);
        vertx.cancelTimer(poller);
        Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
        if (!finished) {
            throw new IllegalStateException("flood not answered within 5 minutes: " + done.getCount() + " left");
        }
        // The side requests still in flight are answered before the client closes (closing would fail them).
        await().atMost(Duration.ofSeconds(10))
                .until(() -> genuine.size() >= polls.get() && readiness.size() >= polls.get());
        flood.close();
        side.close();
        return new Result(Map.copyOf(answers), List.copyOf(readiness), List.copyOf(genuine), List.copyOf(genuineMicros),
                elapsed, errors.get());
    }

    private static String reason(Buffer body) {
        String text = body.toString();
        int at = text.indexOf("\"reason\":\"");
        if (at < 0) {
            int status = text.indexOf("\"status\":\"");
            return status < 0 ? "-" : text.substring(status + 10, text.indexOf('"', status + 10));
        }
        return text.substring(at + 10, text.indexOf('"', at + 10));
    }

    @Override
    public void close() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    /** Counts requests in flight at once (for the origin's side of a test). */
    static final class Peak {
        private final AtomicLong now = new AtomicLong();
        private final AtomicLong max = new AtomicLong();

        void enter() {
            max.accumulateAndGet(now.incrementAndGet(), Math::max);
        }

        void leave() {
            now.decrementAndGet();
        }

        long max() {
            return max.get();
        }
    }
}
