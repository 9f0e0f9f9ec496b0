package io.webhookbuffer.common;

import java.util.List;
import java.util.Optional;

import io.smallrye.config.ConfigMapping;

/** Where the customer's origin is ({@code buffer.origin.*}). */
@ConfigMapping(prefix = "buffer.origin")
public interface OriginConfig {

    /** The origin's base URL, e.g. {@code https://api.example.com}; batches go to {@code {base}/internal/webhooks/batch}. */
    Optional<String> baseUrl();

    /** Bearer token the buffer presents to the origin. Never logged. */
    Optional<String> token();

    /**
     * Hosts a tenant's {@code originUrl} may name besides the global origin's: {@code api.example.com},
     * {@code *.example.com} (any name under it), an IP address, or {@code *} (any). Unset: only the global origin's host.
     */
    Optional<List<String>> allowedHosts();

    /**
     * Addresses in the refused ranges (loopback, link-local, private, unique local, carrier-grade NAT, unspecified,
     * multicast, reserved) that origins may still be connected to, as CIDR ranges or single addresses
     * ({@code 10.0.0.0/8}, {@code 127.0.0.1}). Unset: none.
     */
    Optional<List<String>> allowedPrivateNetworks();
}
