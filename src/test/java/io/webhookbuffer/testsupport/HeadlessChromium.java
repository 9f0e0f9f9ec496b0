package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's {@code chromium}, headless, for tests of server-rendered pages: each call starts a fresh browser with its
 * own profile directory, loads one URL and dumps the DOM or takes a screenshot. {@code .ci/run} installs it;
 * {@link #path()} is null where it is missing, and tests then skip (the README test command also runs on a machine
 * with only Java and Maven).
 */
public final class HeadlessChromium {

    private static final List<String> CANDIDATES = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser");
    private static final List<String> FLAGS = List.of("--headless", "--no-sandbox", "--disable-gpu",
            "--disable-background-networking", "--no-first-run", "--disable-component-update", "--disable-sync",
            "--disable-quic", "--disable-dev-shm-usage", "--window-size=1280,900");

    private HeadlessChromium() {
    }

    /** The chromium binary, or null when none is installed. */
    public static String path() {
        return CANDIDATES.stream().filter(p -> Files.isExecutable(Path.of(p))).findFirst().orElse(null);
    }

    /** The DOM after the page loaded (redirects and cookies followed). */
    public static String dumpDom(String url) throws IOException, InterruptedException {
        return run(List.of("--dump-dom", url), null);
    }

    /** A PNG of the page as loaded. */
    public static void screenshot(String url, Path png) throws IOException, InterruptedException {
        run(List.of("--screenshot=" + png.toAbsolutePath(), url), png);
    }

    private static String run(List<String> action, Path output) throws IOException, InterruptedException {
        String binary = path();
        if (binary == null) {
            throw new IllegalStateException("chromium is not installed");
        }
        Path profile = Files.createTempDirectory("chromium-profile-");
        Path stdout = Files.createTempFile("chromium-out-", ".html");
        try {
            List<String> command = new ArrayList<>();
            command.add(binary);
            command.addAll(FLAGS);
            command.add("--user-data-dir=" + profile);
            command.addAll(action);
            Process p = new ProcessBuilder(command).redirectOutput(stdout.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("chromium did not finish within 90 s: " + action);
            }
            return Files.readString(stdout, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(stdout);
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
            }
        }
    }
}
