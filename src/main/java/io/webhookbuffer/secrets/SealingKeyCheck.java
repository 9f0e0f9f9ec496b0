package io.webhookbuffer.secrets;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.interceptor.Interceptor;

import org.jboss.logging.Logger;

import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.webhookbuffer.common.ConfigCheck;
import io.webhookbuffer.common.Hmac;

/**
 * Refuses to start when an id of {@code buffer.secrets.keys} names other bytes than the key the stored values were
 * sealed under: such a replica would report ready (its readiness reads no tenant's secret) and answer every real tenant
 * sealed under that id 503; refusing keeps a rolling deploy from going on, and the old replicas serve. Each key id's
 * check value ({@link Keyring#checkValue}, never the key) is kept in {@code secret_key_checks} (V20): an id with one
 * recorded is compared with it, one query for every id. An id without one (the first start with it, or a database
 * sealed before V20) is first tried on at most {@link #SAMPLES} stored values under it: when some exist and none opens,
 * the id's bytes are wrong; else its check value is recorded (the first replica's wins a race, and the others compare
 * with it). The problem names the key id, never a key or a value.
 */
@ApplicationScoped
public class SealingKeyCheck {

    private static final Logger LOG = Logger.getLogger(SealingKeyCheck.class);
    static final int SAMPLES = 3;
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    static final String RECORDED = "SELECT key_id, check_value FROM secret_key_checks WHERE key_id = ANY($1)";
    static final String RECORD = """
            INSERT INTO secret_key_checks (key_id, check_value) VALUES ($1, $2) ON CONFLICT (key_id) DO NOTHING""";
    /** A few provider secrets sealed under the key id ({@code $1}: its prefix); every tenant has at least one. */
    static final String SAMPLE = """
            SELECT t.tenant_id, v FROM tenants t, unnest(t.secrets_encrypted) v WHERE starts_with(v, $1) LIMIT $2""";

    private final Pool pool;
    private final SecretCipher cipher;

    public SealingKeyCheck(Pool pool, SecretCipher cipher) {
        this.pool = pool;
        this.cipher = cipher;
    }

    /** Before the ports open and readiness can be reported (they observe the start-up at the default priority). */
    void check(@Observes @Priority(Interceptor.Priority.APPLICATION) StartupEvent event) {
        verify().await().atMost(PATIENCE).throwIfAny();
        LOG.infof("secrets at rest: keys %s match their check values", cipher.keyring().ids());
    }

    /** The problems found, one per key id whose bytes are not the ones recorded or that sealed the stored values. */
    public Uni<ConfigCheck> verify() {
        List<String> ids = List.copyOf(cipher.keyring().ids());
        return recorded(ids)
                .flatMap(known -> Multi.createFrom().iterable(ids).filter(id -> !known.containsKey(id))
                        .onItem().transformToUniAndConcatenate(this::bootstrap)
                        .collect().asList())
                .flatMap(refused -> recorded(ids).map(known -> problems(ids, known, refused)));
    }

    private ConfigCheck problems(List<String> ids, Map<String, String> known, List<String> refused) {
        ConfigCheck check = new ConfigCheck();
        Keyring keyring = cipher.keyring();
        for (String id : ids) {
            String recorded = known.get(id);
            boolean matches = recorded != null && Hmac.constantTimeEquals(recorded.getBytes(StandardCharsets.US_ASCII),
                    keyring.checkValue(id).getBytes(StandardCharsets.US_ASCII));
            check.require(matches || (recorded == null && !refused.contains(id)), problem(id, recorded != null));
        }
        return check;
    }

    private static String problem(String id, boolean recorded) {
        return "buffer.secrets.keys maps key id '" + id + "' to other bytes than the key '" + id + "' that sealed the "
                + "stored secrets (" + (recorded ? "its check value in secret_key_checks differs"
                        : "none of the stored values sealed under it opens")
                + "): every tenant sealed under '" + id + "' would answer 503. Put back the key that id named, or "
                + "give a new key a new id (docs/runbook.md, \"The service refuses its secrets key\")";
    }

    private Uni<Map<String, String>> recorded(List<String> ids) {
        return pool.preparedQuery(RECORDED).execute(Tuple.of(ids.toArray(String[]::new))).map(rows -> {
            Map<String, String> known = new HashMap<>();
            rows.forEach(row -> known.put(row.getString("key_id"), row.getString("check_value")));
            return known;
        });
    }

    /**
     * An id with no check value yet: tried on a few stored values under it. Answers the id when its bytes do not open
     * them (nothing is recorded then), else an empty string once its check value is recorded.
     */
    private Uni<String> bootstrap(String id) {
        String prefix = "v1:" + id + ":";
        return pool.preparedQuery(SAMPLE).execute(Tuple.of(prefix, SAMPLES)).flatMap(rows -> {
            List<Row> samples = new ArrayList<>();
            rows.forEach(samples::add);
            if (!samples.isEmpty() && samples.stream().noneMatch(this::opens)) {
                return Uni.createFrom().item(id);
            }
            return pool.preparedQuery(RECORD).execute(Tuple.of(id, cipher.keyring().checkValue(id)))
                    .replaceWith("");
        });
    }

    private boolean opens(Row sample) {
        try {
            cipher.open(sample.getString("v"), sample.getString("tenant_id"), SecretCipher.Field.PROVIDER_SECRET);
            return true;
        } catch (SealedValueException e) {
            return false;
        }
    }
}
