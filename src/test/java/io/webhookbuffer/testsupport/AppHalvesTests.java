package io.webhookbuffer.testsupport;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.platform.suite.api.SelectClasses;

import io.webhookbuffer.apphalves.AppHalf1Tests;
import io.webhookbuffer.apphalves.AppHalf2Tests;

/**
 * The two halves of the application tests ({@code apphalves/AppHalf1Tests}, {@code AppHalf2Tests}, run at once by
 * Surefire's {@code app-halves} execution) together name exactly the Surefire classes of
 * {@code src/test/boots-the-app.txt}, each once, and keep each test profile's classes in one half: a profile split
 * across the halves would be built and booted in both JVMs. A class left out of both would never run in
 * {@code mvn -B verify}, since the plain tier leaves out every class of that list.
 */
class AppHalvesTests {

    private static final Path LIST = Path.of("src/test/boots-the-app.txt");
    private static final Path SOURCES = Path.of("src/test/java");
    private static final Pattern PROFILE = Pattern.compile("@TestProfile\\(([\\w.]+)\\.class\\)");
    private static final List<Class<?>> HALVES = List.of(AppHalf1Tests.class, AppHalf2Tests.class);

    @Test
    void theHalvesNameEveryClassThatBootsTheApplicationOnceWithEachProfileInOneHalf() throws IOException {
        Set<String> expected = new TreeSet<>();
        for (String line : Files.readAllLines(LIST, StandardCharsets.UTF_8)) {
            String entry = line.strip();
            if (!entry.isEmpty() && !entry.startsWith("#") && entry.endsWith("Tests.java")) {
                expected.add(entry.substring(0, entry.length() - ".java".length()).replace('/', '.'));
            }
        }
        Set<String> named = new TreeSet<>();
        Set<String> twice = new TreeSet<>();
        Map<String, Set<String>> halvesOfProfile = new TreeMap<>();
        for (Class<?> half : HALVES) {
            for (String name : half.getAnnotation(SelectClasses.class).names()) {
                if (!named.add(name)) {
                    twice.add(name);
                }
                halvesOfProfile.computeIfAbsent(profile(name), p -> new TreeSet<>()).add(half.getSimpleName());
            }
        }
        Set<String> missing = new TreeSet<>(expected);
        missing.removeAll(named);
        Set<String> extra = new TreeSet<>(named);
        extra.removeAll(expected);
        assertEquals(Set.of(), missing, "boot the application but are in neither half: add each to the half that"
                + " holds its profile's classes (apphalves/AppHalf1Tests or AppHalf2Tests)");
        assertEquals(Set.of(), extra, "named by a half but not in " + LIST + ": remove them");
        assertEquals(Set.of(), twice, "named twice");
        halvesOfProfile.values().removeIf(halves -> halves.size() == 1);
        assertEquals(Map.of(), halvesOfProfile, "profiles whose classes are split across the halves: keep each in one");
    }

    /** The test profile a class runs under, from its source ({@code default} without {@code @TestProfile}). */
    private static String profile(String className) throws IOException {
        Path source = SOURCES.resolve(className.replace('.', '/') + ".java");
        Matcher m = PROFILE.matcher(Files.readString(source, StandardCharsets.UTF_8));
        return m.find() ? m.group(1) : "default";
    }
}
