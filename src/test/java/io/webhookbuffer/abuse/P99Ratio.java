package io.webhookbuffer.abuse;

import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * How sure one run's p99 ratio is: the legitimate sender's p99 under abuse over its quiet p99, and a bootstrap
 * interval of it (each window's answers resampled with replacement, the ratio taken each time). At 20 requests/s a
 * 12 s abuse holds about 240 answers and its p99 is the 3rd-slowest: two or three answers caught in one commit stall
 * of the disk decide the verdict, and the interval says so (bench/results/abuse-log.md, the runs of 2026-12-05 23:50).
 *
 * <p>Pure: the latencies in, the figures out; the seed fixed, so a run's report is reproducible from its legit.csv.
 */
record P99Ratio(double ratio, double low, double high, double factor, double shareWithin, int quietAnswers,
        int abusedAnswers) {

    static final int RESAMPLES = 2_000;
    /** The interval's ends: the 5th and 95th percentiles of the resampled ratios (a 90 % interval). */
    static final double TAIL = 0.05;

    /**
     * @param quiet  the quiet window's latencies (ms), any order
     * @param abused the abuse window's latencies (ms), any order
     * @param factor the bound the ratio is judged against; {@link #shareWithin} is the share of resamples within it
     */
    static P99Ratio of(List<Long> quiet, List<Long> abused, double factor) {
        long[] q = sorted(quiet);
        long[] a = sorted(abused);
        if (q.length == 0 || a.length == 0) {
            return new P99Ratio(0, 0, 0, factor, 0, q.length, a.length);
        }
        Random random = new Random(42);
        double[] ratios = new double[RESAMPLES];
        int within = 0;
        for (int i = 0; i < RESAMPLES; i++) {
            ratios[i] = ratio(p99(resample(a, random)), p99(resample(q, random)));
            if (ratios[i] <= factor) {
                within++;
            }
        }
        Arrays.sort(ratios);
        return new P99Ratio(ratio(p99(a), p99(q)), ratios[(int) (TAIL * RESAMPLES)],
                ratios[(int) ((1 - TAIL) * RESAMPLES) - 1], factor, (double) within / RESAMPLES, q.length, a.length);
    }

    /** Which answer the abuse window's p99 is, counted from the slowest (1: the slowest). */
    int abusedRankFromSlowest() {
        return abusedAnswers - rank(abusedAnswers, 0.99) + 1;
    }

    /** The nearest-rank p99 of ascending values, as {@link AbuseReport#percentile} takes it. */
    static long p99(long[] ascending) {
        return ascending[rank(ascending.length, 0.99) - 1];
    }

    /** The nearest rank (1-based) of the {@code q} quantile of {@code n} values, {@code n} at least 1. */
    static int rank(int n, double q) {
        return Math.max(1, Math.min(n, (int) Math.ceil(q * n)));
    }

    private static double ratio(long abused, long quiet) {
        return (double) abused / Math.max(1, quiet);
    }

    private static long[] resample(long[] values, Random random) {
        long[] out = new long[values.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = values[random.nextInt(values.length)];
        }
        Arrays.sort(out);
        return out;
    }

    private static long[] sorted(List<Long> values) {
        return values.stream().mapToLong(Long::longValue).sorted().toArray();
    }
}
