package io.webhookbuffer.verify;

import java.util.Map;
import java.util.Set;

/** The signature schemes this build ships, by the {@code provider} name used in tenant config. */
public final class Providers {

    public static final String GENERIC = "generic";

    private static final Map<String, SignatureVerifier> VERIFIERS = Map.of(GENERIC, new GenericHmacVerifier());

    private Providers() {
    }

    /** The verifier for a provider name, or null when the name is unknown (callers refuse, never skip verification). */
    public static SignatureVerifier verifier(String provider) {
        return provider == null ? null : VERIFIERS.get(provider);
    }

    public static Set<String> names() {
        return VERIFIERS.keySet();
    }
}
