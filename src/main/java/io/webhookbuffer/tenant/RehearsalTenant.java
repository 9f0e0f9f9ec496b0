package io.webhookbuffer.tenant;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.enterprise.context.ApplicationScoped;

import io.vertx.core.net.SocketAddress;

/**
 * The tenant the start-up warm-up sends its requests to (see {@code warmup.Warmup}): it exists only in this process,
 * never in the database, under an id and with a secret drawn at random at start and never shown. The directory knows
 * it only while the warm-up runs ({@link #open}); its actor writes through the rehearsal writer, whose statements are
 * rolled back; usage and ingest metrics leave it out. So the warm-up leaves nothing behind, and no sender can reach
 * it: the id cannot be guessed and is refused (404) once the warm-up ends.
 */
@ApplicationScoped
public class RehearsalTenant {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final char[] ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

    private final String id;
    private final String secret;
    private final Tenant tenant;
    private volatile boolean open;
    /** The warm-up's own raw connections ({@code host:port} of their client end), while it runs. */
    private final Set<String> connections = ConcurrentHashMap.newKeySet();

    public RehearsalTenant() {
        StringBuilder name = new StringBuilder("warmup-");
        for (int i = 0; i < 24; i++) {
            name.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
        }
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        this.id = name.toString();
        this.secret = HexFormat.of().formatHex(key);
        // The generic scheme (HMAC-SHA256 of the body, X-Event-ID), no rate limit to speak of, the default body limit.
        this.tenant = new Tenant(id, true, "generic", List.of(secret), Integer.MAX_VALUE, 1, null, null, null, null,
                null, null);
    }

    public String id() {
        return id;
    }

    public String secret() {
        return secret;
    }

    /** Whether {@code tenantId} is this rehearsal tenant (also after the warm-up: its events are still rehearsals). */
    public boolean is(String tenantId) {
        return id.equals(tenantId);
    }

    /** Whether {@code tenantId} is this tenant's id or one the refusal rehearsal made from it (its unknown tenants). */
    public boolean owns(String tenantId) {
        return tenantId != null && tenantId.startsWith(id);
    }

    /** The rehearsal tenant when {@code tenantId} names it and the warm-up runs; null otherwise. */
    Tenant lookup(String tenantId) {
        return open && id.equals(tenantId) ? tenant : null;
    }

    public void open() {
        open = true;
    }

    public void close() {
        open = false;
    }

    /** A connection the warm-up opened from {@code host:port}: what the server answers on it is a rehearsal. */
    public void connected(String host, int port) {
        connections.add(host + ":" + port);
    }

    /**
     * Whether a request came on a connection the warm-up opened: {@code remote} is the connection's own address (the
     * socket's, never a forwarded one), which is the rehearsal's client end. One check of an empty set once the
     * warm-up is over.
     */
    public boolean sentBy(SocketAddress remote) {
        return !connections.isEmpty() && remote != null && remote.hostAddress() != null
                && connections.contains(remote.hostAddress() + ":" + remote.port());
    }

    /** The warm-up is over: no connection is the rehearsal's any more. */
    public void forgetConnections() {
        connections.clear();
    }
}
