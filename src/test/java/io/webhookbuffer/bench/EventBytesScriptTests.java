package io.webhookbuffer.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * bench/event-bytes.sh (docs/cells.md's bytes per event) at a small size against the local PostgreSQL: it applies
 * every migration, and each figure it prints is there and in proportion (a queue row holds its body; the insert's WAL
 * carries at least the row; the delete's far less).
 */
class EventBytesScriptTests {

    private static final Pattern ROW = Pattern.compile("^\\| (.+?) \\| (\\d+) \\|$", Pattern.MULTILINE);

    @Test
    void theScriptPrintsEveryFigureInProportion() throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("bash", "bench/event-bytes.sh").redirectErrorStream(true);
        pb.environment().put("EVENT_BYTES_DATABASE", "wb_event_bytes_test");
        pb.environment().put("EVENT_BYTES_EVENTS", "500");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(2, TimeUnit.MINUTES), "the script ended");
        assertEquals(0, p.exitValue(), out);
        Map<String, Long> rows = new LinkedHashMap<>();
        Matcher m = ROW.matcher(out);
        while (m.find()) {
            rows.put(m.group(1), Long.parseLong(m.group(2)));
        }
        assertEquals(5, rows.size(), out);
        long body = rows.get("body (mean)");
        assertTrue(body > 1_200 && body < 1_300, out);
        assertTrue(rows.get("queue row (event_queue: heap, keys, TOAST)") > body, out);
        assertTrue(rows.get("dedupe row (processed_events and its indexes)") > 47, out);
        assertTrue(rows.get("WAL of the insert (50-row commits, from a checkpoint)") > body, out);
        assertTrue(rows.get("WAL of the drain's delete") < body / 4, out);
        assertTrue(out.contains("500 events;"), out);
    }
}
