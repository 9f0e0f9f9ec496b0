package io.webhookbuffer.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Debian's {@code chromium}, headless, for tests of server-rendered pages: each call starts a fresh browser with its
 * own profile directory, loads one URL and dumps the DOM or takes a screenshot; or ({@link #signIn}) drives it over
 * the DevTools protocol to type into a sign-in form as a person would. {@code .ci/run} installs it;
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

    /**
     * Opens {@code url}, which shows a browser a sign-in form, types {@code secret} into the form's focused field and
     * presses Enter; once the page the form leads to has loaded (its title no longer says "sign in"), returns its DOM,
     * and writes a screenshot of it to {@code png} (when not null).
     */
    public static String signIn(String url, String secret, Path png) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("chromium-profile-");
        Process p = start(List.of("--remote-debugging-port=0", "about:blank"), profile,
                ProcessBuilder.Redirect.DISCARD);
        try (DevTools page = DevTools.open(profile)) {
            page.call("Page.navigate", Map.of("url", url));
            page.until("document.readyState === 'complete' && document.activeElement"
                    + " && document.activeElement.name === 'token'");
            page.call("Input.insertText", Map.of("text", secret));
            page.call("Input.dispatchKeyEvent", Map.of("type", "keyDown", "key", "Enter", "code", "Enter",
                    "windowsVirtualKeyCode", 13, "text", "\r"));
            page.call("Input.dispatchKeyEvent", Map.of("type", "keyUp", "key", "Enter", "code", "Enter",
                    "windowsVirtualKeyCode", 13));
            page.until("document.readyState === 'complete' && document.title !== ''"
                    + " && !document.title.includes('sign in')");
            String dom = page.evaluate("document.documentElement.outerHTML").asText();
            if (png != null) {
                String data = page.call("Page.captureScreenshot", Map.of("format", "png")).get("data").asText();
                Files.write(png, Base64.getDecoder().decode(data));
            }
            return dom;
        } finally {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            delete(profile);
        }
    }

    private static Process start(List<String> action, Path profile, ProcessBuilder.Redirect stdout)
            throws IOException {
        String binary = path();
        if (binary == null) {
            throw new IllegalStateException("chromium is not installed");
        }
        List<String> command = new ArrayList<>();
        command.add(binary);
        command.addAll(FLAGS);
        command.add("--user-data-dir=" + profile);
        command.addAll(action);
        return new ProcessBuilder(command).redirectOutput(stdout).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    private static String run(List<String> action, Path output) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("chromium-profile-");
        Path stdout = Files.createTempFile("chromium-out-", ".html");
        try {
            Process p = start(action, profile, ProcessBuilder.Redirect.to(stdout.toFile()));
            if (!p.waitFor(90, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("chromium did not finish within 90 s: " + action);
            }
            return Files.readString(stdout, StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(stdout);
            delete(profile);
        }
    }
}
