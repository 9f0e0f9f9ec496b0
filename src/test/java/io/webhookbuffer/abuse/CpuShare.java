package io.webhookbuffer.abuse;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Who used the machine's CPU, read from Linux's /proc at two moments: the service, the legitimate sender and this test
 * JVM (the hostile clients), each its user and system time, and the machine's busy time in all. Shares are of the
 * machine's clock ticks between the readings times its cores, so they read as cores busy and need no tick rate. What
 * the kernel does for a process in its syscalls (socket copies of both ends of loopback) counts as that process's.
 */
record CpuShare(long machineTotal, long machineBusy, long service, long sender, long attacker) {

    /**
     * The machine's cores, from /proc/stat: not {@code availableProcessors()}, which counts only the CPUs this JVM may
     * run on, and so read 1 once the hostile clients were pinned to one ({@code abuse.attacker-cpus}) and halved every
     * share.
     */
    private static final int CORES = cores(Path.of("/proc/stat"));

    /** Now; zeros where /proc cannot be read (not Linux, a process gone), which the report shows as "n/a". */
    static CpuShare now(long servicePid, long senderPid) {
        long[] machine = machine();
        return new CpuShare(machine[0], machine[1], process(servicePid), process(senderPid),
                process(ProcessHandle.current().pid()));
    }

    /** Cores busy between two readings, and by whom; "n/a" when either is missing (the run stopped before it). */
    static String between(CpuShare earlier, CpuShare later) {
        return earlier == null || later == null ? "n/a" : later.since(earlier);
    }

    private String since(CpuShare earlier) {
        long ticks = machineTotal - earlier.machineTotal;
        if (ticks <= 0 || earlier.machineTotal == 0) {
            return "n/a";
        }
        double perTick = (double) CORES / ticks;
        long busy = machineBusy - earlier.machineBusy;
        long byService = service - earlier.service;
        long bySender = sender - earlier.sender;
        long byAttacker = attacker - earlier.attacker;
        return String.format(Locale.ROOT, "%.2f of %d cores busy: the service %.2f, the legitimate sender %.2f, the"
                + " hostile clients' JVM %.2f, everything else %.2f", busy * perTick, CORES, byService * perTick,
                bySender * perTick, byAttacker * perTick, (busy - byService - bySender - byAttacker) * perTick);
    }

    /** The {@code cpuN} lines of a /proc/stat (one per core); where it cannot be read, the cores this JVM may use. */
    static int cores(Path procStat) {
        try (var lines = Files.lines(procStat)) {
            long cores = lines.filter(line -> line.matches("cpu\\d+\\s.*")).count();
            return cores > 0 ? (int) cores : Runtime.getRuntime().availableProcessors();
        } catch (IOException | RuntimeException e) {
            return Runtime.getRuntime().availableProcessors();
        }
    }

    /** {total, busy} ticks of all cores: busy is all but idle and iowait. */
    private static long[] machine() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long total = 0;
            for (int i = 1; i < f.length; i++) {
                total += Long.parseLong(f[i]);
            }
            return new long[] { total, total - Long.parseLong(f[4]) - Long.parseLong(f[5]) };
        } catch (IOException | RuntimeException e) {
            return new long[] { 0, 0 };
        }
    }

    /** utime + stime of the process, in ticks; 0 when it cannot be read. */
    private static long process(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            // The name (field 2) may hold spaces: fields are counted after its closing parenthesis.
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
