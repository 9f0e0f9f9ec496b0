package io.webhookbuffer.testsupport;

/**
 * Failsafe's lanes (docs/testing.md): the packaged-service tests run in one JVM, one after another, while those marked
 * {@code @Execution(CONCURRENT)} run beside them. The tests that load the cores, or whose checks are sensitive to their
 * load, also hold {@link #CORES} ({@code @ResourceLock}), so at most one of them runs at a time and only the light
 * ones run beside it.
 */
public final class Lanes {

    /** The lock of the tests that load the cores: torture, abuse, three replicas, the bench's smoke run. */
    public static final String CORES = "the machine's cores";

    private Lanes() {
    }
}
