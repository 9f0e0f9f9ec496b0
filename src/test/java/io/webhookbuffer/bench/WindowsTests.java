package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The generator's measurement windows: parsing, which window a request belongs to, and each window's figures. */
class WindowsTests {

    @Test
    void aRequestCountsInTheWindowItsSendFallsIn() {
        Windows w = Windows.parse("cold=0-15,warm=45-60");
        w.record(TimeUnit.SECONDS.toNanos(1), 202, 1_000);
        w.record(TimeUnit.SECONDS.toNanos(15) - 1, 200, 3_000);
        w.record(TimeUnit.SECONDS.toNanos(15), 202, 50_000); // between the windows: in neither
        w.record(TimeUnit.SECONDS.toNanos(45), 202, 2_000);

        List<LoadResult.Window> results = w.results();
        assertEquals("cold", results.get(0).name());
        assertEquals(2 / 15.0, results.get(0).requestsPerSecond(), 1e-9);
        assertEquals(1 / 15.0, results.get(0).acceptedPerSecond(), 1e-9, "a 200 is answered, not accepted");
        assertEquals(3.0, results.get(0).latency().max(), 0.01);
        assertEquals(1, results.get(1).latency().count());
        assertEquals(2.0, results.get(1).latency().max(), 0.01);
        assertEquals(TimeUnit.SECONDS.toNanos(60), w.endNanos());
    }

    @Test
    void noWindowsIsNothingToMeasure() {
        assertEquals(List.of(), Windows.parse(null).results());
        assertEquals(0, Windows.parse(" ").endNanos());
    }

    @Test
    void aMalformedWindowIsRefusedWithItsText() {
        assertEquals("--windows: cold=15-15 ends before it starts",
                assertThrows(IllegalArgumentException.class, () -> Windows.parse("cold=15-15")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> Windows.parse("cold"));
        assertThrows(IllegalArgumentException.class, () -> Windows.parse("=0-5"));
        assertThrows(IllegalArgumentException.class, () -> Windows.parse("cold=a-5"));
        assertThrows(IllegalArgumentException.class, () -> Windows.parse("cold=-1-5"));
    }
}
