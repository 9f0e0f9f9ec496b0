package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

/** The summary is one Markdown table that parses back to its rows; pgbench's tps line is read for the ceiling. */
class SummaryTableTests {

    @Test
    void aRenderedTableParsesBackToTheSameRowsInOrder() {
        SummaryTable table = new SummaryTable().row("scenario", "steady").row("accepted/s", "15234")
                .row("p99 ack ms", "21.50").row("statuses", "200=12, 202=300").row("lost", "0");
        String text = table.render();
        assertEquals(table.rows(), SummaryTable.parse(text));
        assertEquals("| metric | value |\n| --- | --- |\n| scenario | steady |\n", text.substring(0,
                text.indexOf("| accepted/s")));
    }

    @Test
    void parsingIgnoresTheLinesAroundTheTable() {
        String printed = """
                waiting for the origin to receive 295 accepted events (it has 295 distinct)

                | metric | value |
                | --- | --- |
                | accepted/s | 99 |
                | lost | 0 |
                | order violations | 1 |
                done
                """;
        assertEquals(Map.of("accepted/s", "99", "lost", "0", "order violations", "1"), SummaryTable.parse(printed));
    }

    @Test
    void severalRunsCombineIntoMediansWithTheirRange() {
        Map<String, String> a = Map.of("scenario", "steady", "accepted/s", "15000", "p99 ack ms", "20.50",
                "statuses", "202=10");
        Map<String, String> b = Map.of("scenario", "steady", "accepted/s", "13000", "p99 ack ms", "30.00",
                "statuses", "202=12");
        Map<String, String> c = Map.of("scenario", "steady", "accepted/s", "16000", "p99 ack ms", "25.25",
                "statuses", "202=11");
        Map<String, String> median = SummaryTable.parse(SummaryTable.median(List.of(a, b, c)).render());
        assertEquals("3", median.get("runs"));
        assertEquals("steady", median.get("scenario"));
        assertEquals("15000 (13000–16000)", median.get("accepted/s"));
        assertEquals("25.25 (20.50–30)", median.get("p99 ack ms"));
        assertEquals("202=10 ; 202=12 ; 202=11", median.get("statuses"));
        assertEquals("14000 (13000–15000)", SummaryTable.parse(SummaryTable.median(List.of(a, b)).render())
                .get("accepted/s"), "an even count takes the mean of the middle two");
    }

    @Test
    void aCellCannotBreakTheTable() {
        assertThrows(IllegalArgumentException.class, () -> new SummaryTable().row("a|b", "1"));
    }

    @Test
    void readsTheTpsPgbenchReports() {
        String output = """
                pgbench (15.8 (Debian 15.8-0+deb12u1))
                transaction type: bench/commit-ceiling.sql
                number of transactions actually processed: 9120
                latency average = 2.193 ms
                initial connection time = 4.512 ms
                tps = 912.045687 (without initial connection time)
                """;
        assertEquals(912.045687, BenchReport.pgbenchTps(output), 1e-9);
        assertEquals(0, BenchReport.pgbenchTps("pgbench: error: connection failed"));
    }
}
