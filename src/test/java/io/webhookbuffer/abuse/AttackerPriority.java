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
        List<String> command = List.of("taskset", "-a", "-p", "-c", cpus.strip(),
                Long.toString(ProcessHandle.current().pid()));
        try {
            Process taskset = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(taskset.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!taskset.waitFor(10, TimeUnit.SECONDS) || taskset.exitValue() != 0) {
                return "not pinned: taskset failed: " + output.strip();
            }
            return "on CPUs " + cpus.strip();
        } catch (IOException e) {
            return "not pinned: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "not pinned: interrupted";
        }
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
            Process renice = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(renice.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!renice.waitFor(10, TimeUnit.SECONDS) || renice.exitValue() != 0) {
                return "not lowered: renice failed: " + output.strip();
            }
            return "nice " + nice;
        } catch (IOException e) {
            return "not lowered: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "not lowered: interrupted";
        }
    }
}
