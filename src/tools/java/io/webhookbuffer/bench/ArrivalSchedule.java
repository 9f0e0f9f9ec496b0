package io.webhookbuffer.bench;

/**
 * When each request of an open-model run is due: a fixed arrival rate, optionally with one burst window at another
 * rate. Request {@code k} (from 0) is due when the integral of the rate reaches {@code k}. Latency is measured from
 * that due time, not from when the request actually left, so a server that stalls the sender is charged for the
 * whole stall (no coordinated omission).
 */
final class ArrivalSchedule {

    private static final double NANOS = 1e9;
    private final double rate;
    private final double burstRate;
    private final long burstStart;
    private final long burstEnd;

    /**
     * @param perSecond requests per second outside the burst
     * @param burstPerSecond requests per second inside the burst window
     * @param burstStartNanos start of the burst window, from the start of the run
     * @param burstNanos its length (0: no burst)
     */
    ArrivalSchedule(double perSecond, double burstPerSecond, long burstStartNanos, long burstNanos) {
        if (perSecond <= 0 || (burstNanos > 0 && burstPerSecond <= 0)) {
            throw new IllegalArgumentException("rates must be positive");
        }
        this.rate = perSecond;
        this.burstRate = burstNanos > 0 ? burstPerSecond : perSecond;
        this.burstStart = burstStartNanos;
        this.burstEnd = burstStartNanos + Math.max(0, burstNanos);
    }

    static ArrivalSchedule steady(double perSecond) {
        return new ArrivalSchedule(perSecond, perSecond, 0, 0);
    }

    /** How many requests are due at {@code elapsedNanos} after the start (request 0 is due at once). */
    long dueBy(long elapsedNanos) {
        if (elapsedNanos < 0) {
            return 0;
        }
        return (long) Math.floor(integral(elapsedNanos)) + 1;
    }

    /** When request {@code k} is due, in nanoseconds after the start. */
    long dueAt(long k) {
        double beforeBurst = rate * burstStart / NANOS;
        if (k <= beforeBurst) {
            return (long) (k * NANOS / rate);
        }
        double inBurst = burstRate * (burstEnd - burstStart) / NANOS;
        if (k <= beforeBurst + inBurst) {
            return burstStart + (long) ((k - beforeBurst) * NANOS / burstRate);
        }
        return burstEnd + (long) ((k - beforeBurst - inBurst) * NANOS / rate);
    }

    private double integral(long t) {
        long before = Math.min(t, burstStart);
        long during = Math.max(0, Math.min(t, burstEnd) - burstStart);
        long after = Math.max(0, t - burstEnd);
        return (rate * before + burstRate * during + rate * after) / NANOS;
    }
}
