package io.webhookbuffer.tenant;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

import jakarta.enterprise.context.ApplicationScoped;

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
    /**
     * The header every request of the refusal rehearsal carries, with {@link #token()}: the gate neither reports nor
     * keeps a refusal that has it. Drawn at random at start and never shown, like the secret, so no sender can hide
     * its refusals behind it.
     */
    public static final String HEADER = "X-Warmup-Rehearsal";

    private final byte[] token;
    private volatile boolean open;

    public RehearsalTenant() {
        StringBuilder name = new StringBuilder("warmup-");
        for (int i = 0; i < 24; i++) {
            name.append(ALPHABET[RANDOM.nextInt(ALPHABET.length)]);
        }
        byte[] key = new byte[32];
        RANDOM.nextBytes(key);
        this.id = name.toString();
        this.secret = HexFormat.of().formatHex(key);
        byte[] mark = new byte[32];
        RANDOM.nextBytes(mark);
        this.token = HexFormat.of().formatHex(mark).getBytes(StandardCharsets.US_ASCII);
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

    /** The value of {@link #HEADER} on the rehearsal's requests. */
    public String token() {
        return new String(token, StandardCharsets.US_ASCII);
    }

    /**
     * Whether a request carrying {@code header} (its {@link #HEADER} value, null for none) is the warm-up's: the
     * value is the token, compared in constant time. Nothing about the connection counts: a client port the warm-up
     * used is soon another sender's.
     */
    public boolean sentBy(String header) {
        return header != null && MessageDigest.isEqual(token, header.getBytes(StandardCharsets.US_ASCII));
    }
}
