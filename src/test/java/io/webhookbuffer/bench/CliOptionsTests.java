package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The benchmark tools' command lines: what picocli parses and what the checked readers make of it. */
class CliOptionsTests {

    private static final Set<String> KNOWN = Set.of("url", "tenants", "duration", "rate");

    private static CliOptions parse(String... args) {
        return CliOptions.parse(args, KNOWN);
    }

    @Test
    void readsEachKnownOptionWithItsBoundsAndUnits() {
        CliOptions o = parse("--url", "http://127.0.0.1:8080", "--tenants", "1_000", "--duration", "500ms");
        assertEquals("http://127.0.0.1:8080", o.required("url"));
        assertEquals(1000, o.integer("tenants", 10, 1, 10_000));
        assertEquals(Duration.ofMillis(500), o.duration("duration", Duration.ZERO));
        assertEquals(2.5, o.decimal("rate", 2.5, 0, 10), "absent: the fallback");
        assertFalse(o.helpRequested());
        assertThrows(IllegalArgumentException.class, () -> o.integer("tenants", 10, 1, 999), "out of bounds");
    }

    @Test
    void refusesUnknownNamesMissingValuesAndStrayArguments() {
        assertThrows(IllegalArgumentException.class, () -> parse("--nope", "1"));
        assertThrows(IllegalArgumentException.class, () -> parse("--url"));
        assertThrows(IllegalArgumentException.class, () -> parse("stray"));
        assertThrows(IllegalArgumentException.class, () -> parse().required("url"));
    }

    @Test
    void theLastValueOfARepeatedOptionCountsAsAScriptPassesItsCallersOptionsOn() {
        assertEquals("20", parse("--tenants", "10", "--tenants", "20").get("tenants", null));
    }

    @Test
    void helpAsksForTheUsageText() {
        assertTrue(parse("--help").helpRequested());
        assertTrue(parse("-h").helpRequested());
    }
}
