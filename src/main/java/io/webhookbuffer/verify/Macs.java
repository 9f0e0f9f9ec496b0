package io.webhookbuffer.verify;

import java.security.GeneralSecurityException;
import java.util.EnumMap;
import java.util.Map;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

import io.webhookbuffer.verify.SignatureScheme.Algorithm;

/** One {@link Mac} per algorithm per thread: a Mac is not thread-safe and costly to look up. */
final class Macs {

    private static final Map<Algorithm, ThreadLocal<Mac>> MACS = new EnumMap<>(Algorithm.class);

    static {
        for (Algorithm algorithm : Algorithm.values()) {
            MACS.put(algorithm, ThreadLocal.withInitial(() -> create(algorithm.jca)));
        }
    }

    private Macs() {
    }

    /** The thread's Mac for {@code algorithm}, initialised with {@code key} (which must not be empty). */
    static Mac init(Algorithm algorithm, byte[] key) {
        return initialised(MACS.get(algorithm).get(), algorithm, key);
    }

    /** A Mac of the caller's own for {@code algorithm}, initialised with {@code key}: for a body MACed over time. */
    static Mac fresh(Algorithm algorithm, byte[] key) {
        return initialised(create(algorithm.jca), algorithm, key);
    }

    private static Mac initialised(Mac mac, Algorithm algorithm, byte[] key) {
        try {
            mac.init(new SecretKeySpec(key, algorithm.jca));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(algorithm.jca + " rejected its key", e);
        }
        return mac;
    }

    private static Mac create(String jca) {
        try {
            return Mac.getInstance(jca);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(jca + " is not available in this JVM", e);
        }
    }
}
