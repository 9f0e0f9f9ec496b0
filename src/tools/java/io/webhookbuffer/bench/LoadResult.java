package io.webhookbuffer.bench;

import java.util.List;
import java.util.Map;

import org.HdrHistogram.Histogram;

/**
 * What one load-generator run measured, as written to its {@code --result-out} JSON file and read back by
 * {@link BenchReport}. Rates and latencies cover the measured window only (after the warm-up); {@code acceptedIds}
 * counts every 202 of the run, warm-up included, because every one of them must reach the origin.
 * {@code measuredFromEpochMs} is the wall-clock start of the measured window; {@code readyAtEpochMs} when the
 * generator saw the server ready ({@code --await-ready}; 0 when it did not wait).
 */
public record LoadResult(String label, String mode, double targetRate, int connections, int tenants,
        double measuredSeconds, long requests, double requestsPerSecond, double acceptedPerSecond,
        Map<String, Long> statuses, Map<String, Long> errors, long unsent, Latency latency, Latency hotLatency,
        Latency quietLatency, long acceptedIds, List<Window> windows, long measuredFromEpochMs, long readyAtEpochMs) {

    /**
     * One {@code --windows} part of the run: requests sent in {@code [fromSeconds, toSeconds)} after the measured
     * start, their answers per second and their ack latency.
     */
    public record Window(String name, double fromSeconds, double toSeconds, double requestsPerSecond,
            double acceptedPerSecond, Latency latency) {
    }

    /** Ack latency in milliseconds, measured from the intended send time (open model) or the send (closed loop). */
    public record Latency(long count, double p50, double p90, double p99, double p999, double max) {

        static Latency of(Histogram microseconds) {
            if (microseconds.getTotalCount() == 0) {
                return new Latency(0, 0, 0, 0, 0, 0);
            }
            return new Latency(microseconds.getTotalCount(), ms(microseconds.getValueAtPercentile(50)),
                    ms(microseconds.getValueAtPercentile(90)), ms(microseconds.getValueAtPercentile(99)),
                    ms(microseconds.getValueAtPercentile(99.9)), ms(microseconds.getMaxValue()));
        }

        private static double ms(long micros) {
            return micros / 1000.0;
        }
    }
}
