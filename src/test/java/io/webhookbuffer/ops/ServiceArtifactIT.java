package io.webhookbuffer.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * The packaged service ({@code target/quarkus-app}, what deploy/Dockerfile copies) carries production code only: no
 * embedded PostgreSQL or Redis in its libraries, and no class of local mode, the benchmark (its load generator and
 * the /bench/ceiling route) or the demo tools in the application jar. Those are built into the local build only.
 */
class ServiceArtifactIT {

    private static final Path APP = Path.of(System.getProperty("service.jar", "target/quarkus-app/quarkus-run.jar"))
            .getParent();

    @Test
    void theLibrariesHoldNoEmbeddedServer() throws IOException {
        List<String> embedded;
        try (Stream<Path> jars = Files.list(APP.resolve("lib/main"))) {
            embedded = jars.map(p -> p.getFileName().toString())
                    .filter(name -> name.startsWith("io.zonky.test") || name.contains("embedded-redis"))
                    .toList();
        }
        assertEquals(List.of(), embedded, "embedded servers in " + APP.resolve("lib/main"));
    }

    @Test
    void theApplicationJarHoldsNoLocalModeBenchmarkOrDemo() throws IOException {
        List<Path> jars;
        try (Stream<Path> files = Files.list(APP.resolve("app"))) {
            jars = files.filter(p -> p.toString().endsWith(".jar")).toList();
        }
        assertTrue(!jars.isEmpty(), "no application jar in " + APP.resolve("app"));
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                List<String> beside = file.stream().map(e -> e.getName())
                        .filter(name -> name.startsWith("io/webhookbuffer/local/")
                                || name.startsWith("io/webhookbuffer/bench/")
                                || name.startsWith("io/webhookbuffer/demo/")
                                || name.equals("META-INF/services/io.smallrye.config.ConfigSourceFactory"))
                        .toList();
                assertEquals(List.of(), beside, "not production code, in " + jar);
            }
        }
    }
}
