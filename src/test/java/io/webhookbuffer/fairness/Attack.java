package io.webhookbuffer.fairness;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Hostile loops that run beside a test until it is closed: each step again and again on a thread of its own. Closing
 * stops them and fails with the first step that threw (a forgery that was accepted, say). Counts what they did by
 * name.
 */
final class Attack implements AutoCloseable {

    interface Step {
        void run() throws Exception;
    }

    private volatile boolean running = true;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<Future<?>> loops = new ArrayList<>();
    private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

    void start(Step... steps) {
        for (Step step : steps) {
            loops.add(threads.submit(() -> {
                while (running) {
                    step.run();
                }
                return null;
            }));
        }
    }

    /** Counts one more {@code what}; the new count. */
    int add(String what) {
        return counts.computeIfAbsent(what, k -> new AtomicInteger()).incrementAndGet();
    }

    int count(String what) {
        AtomicInteger count = counts.get(what);
        return count == null ? 0 : count.get();
    }

    String counts() {
        return new TreeMap<>(counts).toString();
    }

    @Override
    public void close() throws Exception {
        running = false;
        threads.shutdown();
        for (Future<?> loop : loops) {
            loop.get(30, TimeUnit.SECONDS);
        }
        threads.awaitTermination(10, TimeUnit.SECONDS);
    }
}
