package io.webhookbuffer.abuse;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CpuShareTests {

    @Test
    void theMachinesCoresAreItsCpuLinesNotTheCpusThisJvmMayUse(@TempDir Path dir) throws IOException {
        // A 4-core machine's /proc/stat: the aggregate line, one per core, then other counters that start with "cpu"
        // nowhere. Whatever CPUs the reading JVM is pinned to, the shares are of 4 cores.
        Path stat = Files.writeString(dir.resolve("stat"), """
                cpu  7000 0 3000 90000 100 0 50 0 0 0
                cpu0 2000 0 800 22000 30 0 20 0 0 0
                cpu1 1500 0 700 23000 20 0 10 0 0 0
                cpu2 1800 0 750 22500 25 0 10 0 0 0
                cpu3 1700 0 750 22500 25 0 10 0 0 0
                intr 123456 0 0
                ctxt 987654
                btime 1764900000
                processes 4242
                procs_running 2
                procs_blocked 0
                softirq 5555 0 1 2 3 4 5 6 7 8 9
                """);

        assertEquals(4, CpuShare.cores(stat));
    }

    @Test
    void withoutAProcStatTheCpusThisJvmMayUseStandIn(@TempDir Path dir) {
        assertEquals(Runtime.getRuntime().availableProcessors(), CpuShare.cores(dir.resolve("absent")));
    }
}
