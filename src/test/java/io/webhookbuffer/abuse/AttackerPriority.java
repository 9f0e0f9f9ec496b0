package io.webhookbuffer.abuse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Lowers the CPU priority of every thread of this JVM (the hostile clients run here), so that on a machine whose
 * cores the buffer shares with its attackers, the attackers get what the buffer leaves. An attacker's own CPU is
 * not the buffer's to pay on a real deployment; left at equal priority, the run measures the machine the clients
 * and the buffer share, not what the hostile traffic costs the buffer. On Linux the nice value is per thread and a
 * new thread inherits its creator's, so every thread started after this call is lowered too. Processes started
 * before it (the service, the legitimate sender) keep their priority.
 */
final class AttackerPriority {

    private AttackerPriority() {
    }

    /**
     * Pins every thread of this JVM, and every thread it starts later, to {@code cpus} (a list as {@code taskset -c}
     * reads it, e.g. {@code 1}): the hostile clients then use those cores only, and the buffer, the legitimate sender
     * and PostgreSQL have the others to themselves whenever they need them, as they would with the attacker on machines
     * of its own. Blank: not pinned.
     *
     * @return "on CPUs L" when pinned, "on every CPU" for blank, else why it could not be
     */
    static String pin(String cpus) {
        if (cpus.isBlank()) {
            return "on every CPU";
        }
        String done = run(List.of("taskset", "-a", "-p", "-c", cpus.strip(), Long.toString(ProcessHandle.current().pid())));
        return done.isEmpty() ? "on CPUs " + cpus.strip() : "not pinned: " + done;
    }

    /**
     * Moves every thread of this JVM, and every thread it starts later, to Linux's {@code SCHED_IDLE} policy
     * ({@code chrt -a -i}): they run only on a core nothing else wants, and a waking thread of the buffer, the sender
     * or PostgreSQL takes the core from them at once, where under nice 19 it may wait for the scheduler's next
     * decision. The stronger form of the same model: the attacker's CPU is not the buffer's. Needs no privilege.
     *
     * @return "SCHED_IDLE" when moved, "normal policy" for {@code normal}, else why it could not be
     */
    static String policy(String policy) {
        if (!"idle".equals(policy)) {
            return "normal policy";
        }
        String done = run(List.of("chrt", "-a", "-i", "-p", "0", Long.toString(ProcessHandle.current().pid())));
        return done.isEmpty() ? "SCHED_IDLE" : "normal policy: chrt failed: " + done;
    }

    /** @return "nice N" when every thread was lowered, "not lowered" for 0, else why it could not be */
    static String lower(int nice) {
        if (nice <= 0) {
            return "not lowered (equal priority)";
        }
        Path tasks = Path.of("/proc/self/task");
        if (!Files.isDirectory(tasks)) {
            return "not lowered: no /proc/self/task";
        }
        List<String> command = new ArrayList<>(List.of("renice", "-n", Integer.toString(nice), "-p"));
        try (var ids = Files.list(tasks)) {
            ids.forEach(id -> command.add(id.getFileName().toString()));
        } catch (IOException e) {
            return "not lowered: " + e.getMessage();
        }
        String done = run(command);
        return done.isEmpty() ? "nice " + nice : "not lowered: " + done;
    }

    /** Runs a command; returns "" when it exited 0, else what went wrong (its output, or the failure). */
    private static String run(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(10, TimeUnit.SECONDS) || process.exitValue() != 0) {
                return command.get(0) + " failed: " + output.strip();
            }
            return "";
        } catch (IOException e) {
            return e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "interrupted";
        }
    }
}
