package io.webhookbuffer.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Runs a test's independent steps (requests to tenants of their own, senders that each wait out a timer) a few at a
 * time instead of one after another, and gives their results in order. A step's assertion error is thrown as is.
 */
public final class AtOnce {

    private AtOnce() {
    }

    public static <T> List<T> run(int threads, List<? extends Callable<T>> steps) {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<T>> started = new ArrayList<>();
            for (Callable<T> step : steps) {
                started.add(pool.submit(step));
            }
            List<T> out = new ArrayList<>();
            for (Future<T> step : started) {
                out.add(step.get(5, TimeUnit.MINUTES));
            }
            return out;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Error error) {
                throw error; // an assertion of the step
            }
            throw new IllegalStateException(e.getCause());
        } catch (InterruptedException | TimeoutException e) {
            throw new IllegalStateException(steps.size() + " steps did not end", e);
        } finally {
            pool.shutdownNow();
        }
    }
}
