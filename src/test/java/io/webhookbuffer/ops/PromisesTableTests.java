package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's promises table: every row names at least one test, and every test it names exists (a
 * {@code @Test} method of that name in a test class of that name), so a promise cannot point at a test that was
 * renamed or removed.
 */
class PromisesTableTests {

    private static final Path DOC = Path.of("docs/architecture.md");
    private static final String HEADING = "## Promises and the tests that keep them";
    private static final Pattern NAMED = Pattern.compile("`([A-Z][A-Za-z0-9]*)#([a-zA-Z0-9_]+)`");

    @Test
    void everyPromiseNamesTestsThatExist() throws IOException {
        List<String> rows = rows();
        assertTrue(rows.size() >= 25, "the table is there, with its rows: " + rows.size());
        Map<String, Path> classes = testClasses();
        List<String> missing = new ArrayList<>();
        for (String row : rows) {
            String[] cells = row.split(" \\| ");
            Matcher named = NAMED.matcher(cells[cells.length - 1]);
            boolean any = false;
            while (named.find()) {
                any = true;
                Path source = classes.get(named.group(1));
                if (source == null || !hasTest(source, named.group(2))) {
                    missing.add(named.group(1) + "#" + named.group(2));
                }
            }
            assertTrue(any, "a promise without a test: " + cells[0]);
        }
        assertEquals(List.of(), missing, "tests the promises table names but the suite does not have");
    }

    private static List<String> rows() throws IOException {
        String doc = Files.readString(DOC, StandardCharsets.UTF_8);
        int start = doc.indexOf(HEADING);
        assertFalse(start < 0, "docs/architecture.md has the section " + HEADING);
        int end = doc.indexOf("\n## ", start + HEADING.length());
        return doc.substring(start, end < 0 ? doc.length() : end).lines()
                .filter(l -> l.startsWith("| ") && !l.startsWith("| promise") && !l.startsWith("| ---"))
                .collect(Collectors.toList());
    }

    private static Map<String, Path> testClasses() throws IOException {
        try (Stream<Path> files = Files.walk(Path.of("src/test/java"))) {
            return files.filter(f -> f.toString().endsWith(".java")).collect(Collectors.toMap(
                    f -> f.getFileName().toString().replace(".java", ""), f -> f, (a, b) -> a));
        }
    }

    private static boolean hasTest(Path source, String method) throws IOException {
        String text = Files.readString(source, StandardCharsets.UTF_8);
        Matcher declared = Pattern.compile("void\\s+" + Pattern.quote(method) + "\\s*\\(").matcher(text);
        return declared.find() && text.substring(Math.max(0, declared.start() - 300), declared.start()).contains("@Test");
    }
}
