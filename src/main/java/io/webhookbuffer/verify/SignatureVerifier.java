package io.webhookbuffer.verify;

import java.util.List;
import java.util.function.Function;

/** One provider's signature scheme. Implementations are stateless and thread-safe. */
public interface SignatureVerifier {

    /**
     * @param headers reads a request header by (case-insensitive) name; returns null when absent
     * @param rawBody the exact bytes the provider sent
     * @param secrets the tenant's active secrets, current first; any match accepts (rotation)
     * @return {@link VerificationFailure#NONE} when a secret matches, else why not
     */
    VerificationFailure verify(Function<String, String> headers, byte[] rawBody, List<String> secrets);

    /** The provider's own id for this event, or null when the scheme has none (the body hash is used). */
    String dedupeId(Function<String, String> headers, byte[] rawBody);
}
