package io.webhookbuffer.ratelimit.shared;

/** Told how long each answered lease of a shared rate window took (the metrics implement it). */
public interface LeaseListener {

    /** A lease answered by Redis (granted or denied) after {@code nanos}, from the request to its answer. */
    void answered(long nanos);
}
