package io.webhookbuffer.queue;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * bench/snapshot-cost.sh measures the snapshot's statement from a copy of its text (it runs with psql alone, no
 * build): the copy must be the statement the service runs, or the published figures measure something else.
 */
class SnapshotCostScriptTests {

    @Test
    void theScriptMeasuresTheStatementTheServiceRuns() throws IOException {
        String script = flat(Files.readString(Path.of("bench/snapshot-cost.sh")));
        assertTrue(script.contains(flat(QueueSnapshots.QUEUED_HEADS)),
                "bench/snapshot-cost.sh's new_backlog is QueueSnapshots.QUEUED_HEADS");
        String tail = QueueSnapshots.BACKLOG.substring(QueueSnapshots.QUEUED_HEADS.length()).replace("$1", "100");
        assertTrue(script.contains(flat(tail)),
                "bench/snapshot-cost.sh's backlog_tail is the rest of QueueSnapshots.BACKLOG");
    }

    private static String flat(String sql) {
        return sql.replaceAll("\\s+", " ").replace("( ", "(").replace(" )", ")").strip();
    }
}
