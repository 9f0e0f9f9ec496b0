package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

/** The production-shape rows' parsing: wrk's result line, the origin's and the CPU samples. */
class ShapeRowsTests {

    @Test
    void wrkResultLineGivesAcceptedAsAnswersLessDuplicatesAndFailures() {
        ShapeRows.WrkResult r = ShapeRows.WrkResult.parse("requests: 1000 in 10.0s = 100 req/s\n"
                + "wrk-result requests=1000 seconds=10.000 duplicates=50 non2xx=10 errors=5 p50=1.500 p99=9.250"
                + " max=20.000 refused=404:10;\n");
        assertEquals(93.5, r.acceptedPerSecond(), 1e-9);
        assertEquals(100, r.requestsPerSecond(), 1e-9);
        assertEquals(9.25, r.p99(), 1e-9);
        assertThrows(IllegalArgumentException.class, () -> ShapeRows.WrkResult.parse("requests: 10"));
    }

    @Test
    void theDrainRateIsTakenBetweenTheSamplesNearestTheWindow() {
        List<ShapeRows.OriginSample> samples = ShapeRows.samples(List.of("1000\t0\t\t\t", "2000\t100\t1\t10\t0.01",
                "3000\t300\t2\t30\t0.02", "4000\t\t\t\t", "5000\t900\t4\t80\t0.05"));
        assertEquals(4, samples.size(), "a line without the origin's count is left out");
        assertEquals(800 / 3.0, ShapeRows.deliveredPerSecond(samples, 2100, 4900), 1e-9, "2000 to 5000 ms");
        assertEquals(-1, ShapeRows.deliveredPerSecond(List.of(), 0, 1000), 1e-9);
    }

    @Test
    void cpuSamplesSkipTheHeaderAndCountAMissingProcessAsZero() {
        List<long[]> rows = ShapeRows.cpuRows(List.of("epoch_ms\tidle\tbuffer\tgenerator\torigin\tpostgres",
                "1000\t50\t10\t\t3\t7"));
        assertEquals(1, rows.size());
        assertArrayEquals(new long[] {1000, 50, 10, 0, 3, 7, 0}, rows.get(0), "no balancer: its column is 0");
    }

    @Test
    void cpuSamplesWithReplicasBehindABalancerCarryItsColumn() {
        List<long[]> rows = ShapeRows.cpuRows(List.of("epoch_ms\tidle\tbuffer\tgenerator\torigin\tpostgres\tbalancer",
                "1000\t50\t10\t4\t3\t7\t2", "1000\t50\t10\t4\t3\t7\t2\t9"));
        assertEquals(1, rows.size(), "a line with more columns than the sampler writes is left out");
        assertArrayEquals(new long[] {1000, 50, 10, 4, 3, 7, 2}, rows.get(0));
    }

    @Test
    void theCpuWindowUsesSamplesInsideItOnly() {
        List<long[]> rows = List.of(new long[] {900, 0, 0, 0, 0, 0}, new long[] {1000, 1, 1, 1, 1, 1},
                new long[] {2000, 2, 2, 2, 2, 2}, new long[] {3100, 0, 0, 0, 0, 0});
        assertEquals(1000, ShapeRows.first(rows, 950, 3000)[0]);
        assertEquals(2000, ShapeRows.last(rows, 950, 3000)[0], "not the sample after the window, taken after exit");
        assertEquals(null, ShapeRows.first(rows, 2100, 3000));
    }
}
