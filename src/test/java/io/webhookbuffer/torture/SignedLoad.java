package io.webhookbuffer.torture;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.webhookbuffer.common.Hmac;
import io.webhookbuffer.testsupport.EventKeys;

/**
 * Steady signed load (generic scheme, {@code X-Event-ID}) at a fixed rate over a few tenants, with a share of
 * duplicates (an earlier event of the tenant sent again, same body), through whatever happens to the service. Every
 * request's answer is kept with its send and answer times: a status, {@link #NO_ANSWER} (refused or reset) or
 * {@link #TIMED_OUT}. The open model: a tick that finds {@link #MAX_IN_FLIGHT} requests waiting is not sent, and
 * counted in {@link #skipped()}. The abuse suite (io.webhookbuffer.abuse) runs it as its legitimate sender.
 */
public final class SignedLoad implements AutoCloseable {

    /**
     * One request and what came back. {@code eventId} is the key the buffer answers and delivers: the
     * {@code X-Event-ID} sent, bound to the body (docs/providers.md "Unsigned ids are bound to the body").
     */
    public record Answer(String tenant, String eventId, long sentAt, long answeredAt, int status) {
    }

    public static final int NO_ANSWER = -1;
    public static final int TIMED_OUT = -2;
    private static final int MAX_IN_FLIGHT = 256;
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(15);
    private static final int RECENT = 64;

    private final String baseUrl;
    private final List<String> tenants;
    private final Map<String, String> secrets;
    private final int rate;
    private final double duplicates;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2)).build();
    private final ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "torture-load");
        t.setDaemon(true);
        return t;
    });
    private final Semaphore inFlight = new Semaphore(MAX_IN_FLIGHT);
    private final ConcurrentLinkedQueue<Answer> answers = new ConcurrentLinkedQueue<>();
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    /** Per tenant, the last event ids sent (the ticker thread only). */
    private final Map<String, List<String>> recent;

    public SignedLoad(String baseUrl, Map<String, String> secretsByTenant, int rate, double duplicates) {
        this.baseUrl = baseUrl;
        this.tenants = List.copyOf(secretsByTenant.keySet());
        this.secrets = Map.copyOf(secretsByTenant);
        this.rate = rate;
        this.duplicates = duplicates;
        this.recent = new HashMap<>();
        tenants.forEach(t -> recent.put(t, new ArrayList<>()));
    }

    public void start() {
        ticker.scheduleAtFixedRate(this::tick, 0, 1_000_000L / rate, TimeUnit.MICROSECONDS);
    }

    /** Stops sending and waits (at most the request timeout) for the answers still due. */
    public void stop() throws InterruptedException {
        ticker.shutdown();
        ticker.awaitTermination(5, TimeUnit.SECONDS);
        if (inFlight.tryAcquire(MAX_IN_FLIGHT, REQUEST_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS)) {
            inFlight.release(MAX_IN_FLIGHT);
        }
    }

    /** Sends one event (recorded like the load's) until it is stored (202) or known (200), at most {@code tries}. */
    int sendUntilStored(String tenant, String eventId, int tries) throws InterruptedException {
        int status = NO_ANSWER;
        for (int i = 0; i < tries && status != 202 && status != 200; i++) {
            if (i > 0) {
                Thread.sleep(500);
            }
            inFlight.acquire();
            status = send(tenant, eventId).join().status();
        }
        return status;
    }

    public List<Answer> answers() {
        return List.copyOf(answers);
    }

    public long skipped() {
        return skipped.get();
    }

    private void tick() {
        long n = sequence.getAndIncrement();
        String tenant = tenants.get((int) (n % tenants.size()));
        List<String> sent = recent.get(tenant);
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String eventId;
        if (!sent.isEmpty() && random.nextDouble() < duplicates) {
            eventId = sent.get(random.nextInt(sent.size()));
        } else {
            eventId = String.format("ev-%07d", n);
            if (sent.size() == RECENT) {
                sent.remove(0);
            }
            sent.add(eventId);
        }
        if (!inFlight.tryAcquire()) {
            skipped.incrementAndGet();
            return;
        }
        try {
            send(tenant, eventId);
        } catch (RuntimeException e) {
            // Thrown out of the tick, it would end the fixed-rate schedule silently: a request with no answer.
            inFlight.release();
            answers.add(new Answer(tenant, key(eventId), System.currentTimeMillis(), System.currentTimeMillis(),
                    NO_ANSWER));
        }
    }

    /** Sends with a permit already taken; the permit is given back when the answer is recorded. */
    private CompletableFuture<Answer> send(String tenant, String eventId) {
        byte[] body = body(eventId);
        HttpRequest request = HttpRequest.newBuilder(URI.create(baseUrl + "/webhook/" + tenant))
                .timeout(REQUEST_TIMEOUT).header("Content-Type", "application/json").header("X-Event-ID", eventId)
                .header("X-Signature", HexFormat.of().formatHex(Hmac.hmacSha256(secrets.get(tenant), body)))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        long sentAt = System.currentTimeMillis();
        return http.sendAsync(request, HttpResponse.BodyHandlers.discarding())
                .handle((response, failure) -> {
                    int status = response != null ? response.statusCode() : failureStatus(failure);
                    Answer answer = new Answer(tenant, key(eventId), sentAt, System.currentTimeMillis(), status);
                    answers.add(answer);
                    inFlight.release();
                    return answer;
                });
    }

    /** The key the buffer answers and delivers for the event sent with {@code X-Event-ID: eventId}. */
    static String key(String eventId) {
        return EventKeys.bound(eventId, body(eventId));
    }

    /** The same body for every copy of an event: a duplicate is byte for byte the request sent before. */
    private static byte[] body(String eventId) {
        return ("{\"id\":\"" + eventId + "\",\"type\":\"torture.event\",\"data\":{\"pad\":\""
                + "x".repeat(200) + "\"}}").getBytes(StandardCharsets.UTF_8);
    }

    private static int failureStatus(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause()
                : failure;
        return cause instanceof HttpTimeoutException ? TIMED_OUT : NO_ANSWER;
    }

    @Override
    public void close() {
        ticker.shutdownNow();
    }
}
