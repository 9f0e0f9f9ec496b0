package io.webhookbuffer.delivery;

import java.net.URI;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.util.TypeLiteral;

import org.eclipse.microprofile.faulttolerance.exceptions.CircuitBreakerOpenException;

import io.smallrye.faulttolerance.api.Guard;
import io.smallrye.mutiny.Uni;
import io.webhookbuffer.common.BufferClock;
import io.webhookbuffer.common.OriginCredentials;
import io.webhookbuffer.queue.QueuedEvent;

/**
 * The origin client behind one circuit breaker per origin (SmallRye Fault Tolerance): after enough failed batches an
 * origin is probed, not hammered. A retryable answer counts as a failure there, a 2xx or a refusal as a success.
 * Every attempt, sent or turned away, is told to the {@link DeliveryListener}.
 */
@ApplicationScoped
public class OriginBreakers {

    /** The status of a batch not sent because the origin's breaker is open (no attempt counted). */
    static final int CIRCUIT_OPEN = -1;
    /**
     * Share of failed batches among the last {@code circuit-breaker.request-volume} that opens an origin's breaker. An
     * origin that fails one batch in two is in trouble, and one that fails fewer is better served by the retries
     * (a breaker open on a flaky origin delays its healthy batches too); the volume and the delay are the knobs that
     * fit an origin's traffic. Was {@code buffer.delivery.circuit-breaker.failure-ratio}.
     */
    static final double FAILURE_RATIO = 0.5;
    private static final TypeLiteral<Uni<OriginResponse>> RESPONSE_UNI = new TypeLiteral<>() {
    };

    private final OriginClient client;
    private final DeliveryConfig config;
    private final DeliveryListener listener;
    private final BufferClock clock;
    private final Map<String, Guard> breakers = new ConcurrentHashMap<>();
    /** Origins (scheme://host:port) whose breaker turned the last batch away; removed on the next real send. */
    private final Map<String, Boolean> openCircuits = new ConcurrentHashMap<>();

    public OriginBreakers(OriginClient client, DeliveryConfig config, DeliveryListener listener, BufferClock clock) {
        this.client = client;
        this.config = config;
        this.listener = listener;
        this.clock = clock;
    }

    /** What the global origin is sent (the tenant's own origin gets its own: {@link OriginCredentialChoice}). */
    OriginCredentials globalCredentials() {
        return client.globalCredentials();
    }

    /** Origins whose breaker is open now (bounded by the number of distinct origins). */
    public Set<String> openCircuits() {
        return Set.copyOf(openCircuits.keySet());
    }

    /**
     * One batch to the origin at {@code base}, through its breaker; an open breaker answers {@link #circuitOpen()}
     * and nothing is sent. With {@code bypass} (a halving, see {@link BatchHalving}) the breaker neither counts the try
     * nor is asked, but an origin it turned away last time is not sent to either.
     */
    Uni<OriginResponse> send(String base, OriginCredentials credentials, String tenantId, String provider,
            List<QueuedEvent> batch, boolean bypass) {
        long started = clock.nanos();
        Uni<OriginResponse> sent = !bypass
                ? guarded(base, () -> client.send(base, credentials, tenantId, provider, batch))
                : openCircuits.containsKey(originLabel(base))
                        ? Uni.createFrom().item(circuitOpen())
                        : client.send(base, credentials, tenantId, provider, batch);
        return sent.invoke(response -> observe(base, response, clock.nanos() - started));
    }

    private Uni<OriginResponse> guarded(String base, Supplier<Uni<OriginResponse>> send) {
        Guard guard = breakers.computeIfAbsent(base, b -> Guard.create()
                .withCircuitBreaker()
                .requestVolumeThreshold(config.circuitBreaker().requestVolume())
                .failureRatio(FAILURE_RATIO)
                .delay(config.circuitBreaker().delay().toMillis(), ChronoUnit.MILLIS)
                .done()
                .build());
        return guard.get(() -> Uni.createFrom().deferred(send::get).flatMap(r -> r.retryable()
                ? Uni.createFrom().failure(new RetryableAnswer(r))
                : Uni.createFrom().item(r)), RESPONSE_UNI)
                .onFailure(RetryableAnswer.class).recoverWithItem(f -> ((RetryableAnswer) f).response)
                .onFailure(CircuitBreakerOpenException.class)
                .recoverWithItem(f -> circuitOpen())
                // Anything else (a batch that could not be built or sent) counts as a failed delivery attempt.
                .onFailure().recoverWithItem(f -> OriginResponse.noAnswer(f.toString()));
    }

    private void observe(String base, OriginResponse response, long nanos) {
        String origin = originLabel(base);
        DeliveryListener.Outcome outcome;
        if (response.status() == CIRCUIT_OPEN) {
            outcome = DeliveryListener.Outcome.CIRCUIT_OPEN;
            nanos = 0;
            openCircuits.put(origin, Boolean.TRUE);
        } else {
            outcome = response.success() ? DeliveryListener.Outcome.SUCCESS
                    : response.retryable() ? DeliveryListener.Outcome.FAILED : DeliveryListener.Outcome.REFUSED;
            if (outcome != DeliveryListener.Outcome.FAILED) {
                // Only what the breaker counts as a success closes it; a failed trial leaves it open.
                openCircuits.remove(origin);
            }
        }
        listener.attempted(outcome, nanos);
    }

    static OriginResponse circuitOpen() {
        return new OriginResponse(CIRCUIT_OPEN, 0, Map.of(), "circuit breaker open");
    }

    /** An origin as a metric label and on the status page: scheme://host:port, never a path or credentials. */
    static String originLabel(String base) {
        try {
            URI uri = URI.create(base);
            int port = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
            return uri.getScheme() + "://" + uri.getHost() + ":" + port;
        } catch (RuntimeException e) {
            return "invalid";
        }
    }

    /** A retryable origin answer, thrown through the breaker so it counts as a failure there. */
    private static final class RetryableAnswer extends RuntimeException {
        final transient OriginResponse response;

        RetryableAnswer(OriginResponse response) {
            super(response.error(), null, false, false);
            this.response = response;
        }
    }
}
