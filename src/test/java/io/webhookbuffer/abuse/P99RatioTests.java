package io.webhookbuffer.abuse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

class P99RatioTests {

    @Test
    void theRatioIsTheNearestRankP99sTheReportPrints() {
        List<Long> quiet = LongStream.rangeClosed(1, 100).boxed().toList();
        List<Long> abused = LongStream.rangeClosed(1, 100).map(v -> 2 * v).boxed().toList();

        P99Ratio r = P99Ratio.of(quiet, abused, 2);

        assertEquals(2.0, r.ratio(), 1e-9);
        assertEquals(AbuseReport.percentile(sortedCopy(abused), 0.99) / (double) AbuseReport.percentile(
                sortedCopy(quiet), 0.99), r.ratio(), 1e-9);
    }

    @Test
    void threeStalledAnswersOutOf240DecideTheVerdictAndTheIntervalSaysSo() {
        // The 20/s sender's 12 s of abuse: 237 answers of 2 ms and one commit stall that held 3 of them for 40 ms.
        // Its p99 is the 3rd-slowest answer, so the stall alone makes 4x; resampled, about half the draws catch fewer
        // than 3 of those answers and the ratio falls to 0.2x.
        List<Long> quiet = answers(2_960, 2, 40, 10);
        List<Long> abused = answers(237, 2, 3, 40);

        P99Ratio r = P99Ratio.of(quiet, abused, 2);

        assertEquals(4.0, r.ratio(), 1e-9);
        assertEquals(3, r.abusedRankFromSlowest());
        assertTrue(r.low() < 1 && r.high() >= 4, "a 90% interval from below 1x to 4x: " + r);
        assertTrue(r.shareWithin() > 0.2 && r.shareWithin() < 0.8, "the verdict is a coin toss: " + r);
    }

    @Test
    void manyAnswersFromOneDistributionGiveANarrowIntervalAroundOne() {
        List<Long> quiet = LongStream.range(0, 3_000).map(i -> 1 + i % 100).boxed().toList();
        List<Long> abused = LongStream.range(0, 1_200).map(i -> 1 + (i * 7) % 100).boxed().toList();

        P99Ratio r = P99Ratio.of(quiet, abused, 2);

        assertEquals(1.0, r.ratio(), 1e-9);
        assertTrue(r.low() >= 0.97 && r.high() <= 1.03 && r.low() <= 1 && r.high() >= 1, "narrow around 1: " + r);
        assertEquals(1.0, r.shareWithin(), 1e-9);
    }

    @Test
    void anEmptyWindowGivesNoRatio() {
        P99Ratio r = P99Ratio.of(List.of(), List.of(3L, 4L), 2);

        assertEquals(new P99Ratio(0, 0, 0, 2, 0, 0, 2), r);
    }

    @Test
    void theReportNamesTheRankInEnglish() {
        assertEquals(List.of("1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "102nd", "113th"),
                LongStream.of(1, 2, 3, 4, 11, 12, 13, 21, 102, 113).mapToObj(n -> AbuseReport.ordinal((int) n))
                        .toList());
    }

    private static List<Long> answers(int fast, long fastMs, int slow, long slowMs) {
        List<Long> out = new ArrayList<>(Collections.nCopies(fast, fastMs));
        out.addAll(Collections.nCopies(slow, slowMs));
        Collections.shuffle(out, new Random(7));
        return out;
    }

    private static List<Long> sortedCopy(List<Long> values) {
        return values.stream().sorted().toList();
    }
}
