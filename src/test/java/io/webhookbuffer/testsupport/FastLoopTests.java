package io.webhookbuffer.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The fast loop leaves out, before they are loaded, exactly the test classes that boot the application: the list
 * Surefire is given ({@code src/test/boots-the-app.txt}) names every class annotated {@code @QuarkusTest},
 * {@code @QuarkusIntegrationTest} or {@code @QuarkusMainTest} under {@code src/test/java}, and nothing else. A class
 * missing from the list would still be dropped by {@link FastLoop}, but only after Quarkus had built its profile.
 */
class FastLoopTests {

    private static final Path LIST = Path.of("src/test/boots-the-app.txt");
    private static final Path SOURCES = Path.of("src/test/java");
    private static final Pattern BOOTS = Pattern.compile(
            "(?m)^@(QuarkusTest|QuarkusIntegrationTest|QuarkusMainTest)\\b");

    @Test
    void theFastLoopsExcludesFileListsEveryClassThatBootsTheApplication() throws IOException {
        Set<String> annotated = annotated();
        Set<String> listed = listed();
        Set<String> missing = new TreeSet<>(annotated);
        missing.removeAll(listed);
        Set<String> extra = new TreeSet<>(listed);
        extra.removeAll(annotated);
        assertEquals(Set.of(), missing, "boot the application: add them to " + LIST);
        assertEquals(Set.of(), extra, "listed in " + LIST + " but gone or no longer booting the application: remove");
    }

    private static Set<String> listed() throws IOException {
        return Files.readAllLines(LIST, StandardCharsets.UTF_8).stream().map(String::strip)
                .filter(line -> !line.isEmpty() && !line.startsWith("#"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static Set<String> annotated() throws IOException {
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(f -> f.toString().endsWith(".java")).filter(FastLoopTests::boots)
                    .map(f -> SOURCES.relativize(f).toString().replace('\\', '/'))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
    }

    private static boolean boots(Path source) {
        try {
            return BOOTS.matcher(Files.readString(source, StandardCharsets.UTF_8)).find();
        } catch (IOException e) {
            throw new IllegalStateException(source.toString(), e);
        }
    }
}
