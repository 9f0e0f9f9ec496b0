package io.webhookbuffer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.methods;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaAnnotation;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

import io.quarkus.scheduler.Scheduled;
import io.webhookbuffer.actor.TenantActors;
import io.webhookbuffer.controlplane.CommandSignature;
import io.webhookbuffer.ingress.IngestRoute;

/**
 * The dependency directions each package-info states, enforced so they cannot drift. The rules see the service
 * (src/main) and the source sets beside it (src/local, src/tools), which reach the tests as test sources.
 */
class ArchitectureTests {

    /** The source sets compiled beside the service: into the tests, and into the local build only. */
    private static final List<Path> BESIDE = List.of(Path.of("src/local/java"), Path.of("src/tools/java"));
    private static final Pattern TEST_CLASS_FILE = Pattern.compile(".*/test-classes/([^$]+?)(\\$.*)?\\.class");
    private static final Path PACKAGES = Path.of("src/main/java/io/webhookbuffer");
    /** A package-info's rule: the list up to the end of its sentence. */
    private static final Pattern MAY_DEPEND_ON = Pattern.compile("May depend on:(.*?)\\.(\\s|$)", Pattern.DOTALL);

    private static final JavaClasses SERVICE = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.webhookbuffer");

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(location -> ImportOption.Predefined.DO_NOT_INCLUDE_TESTS.includes(location)
                    || besideTheService(location))
            .importPackages("io.webhookbuffer");

    /** A class compiled from src/local or src/tools (found by its source file), not a test. */
    private static boolean besideTheService(Location location) {
        Matcher m = TEST_CLASS_FILE.matcher(location.asURI().toString());
        return m.matches() && BESIDE.stream().anyMatch(dir -> Files.exists(dir.resolve(m.group(1) + ".java")));
    }

    @Test
    void theServiceCarriesNoLocalModeBenchmarkOrDemo() {
        classes().should().resideOutsideOfPackages("io.webhookbuffer.local..", "io.webhookbuffer.bench..",
                "io.webhookbuffer.demo..").check(SERVICE);
    }

    @Test
    void pureParts_importNoFrameworks() {
        // ratelimit's own package, not ratelimit.shared (its Redis side)
        noClasses().that().resideInAnyPackage("io.webhookbuffer.verify..", "io.webhookbuffer.ratelimit")
                .should().dependOnClassesThat().resideInAnyPackage("io.quarkus..", "io.vertx..", "io.smallrye..",
                        "jakarta..", "java.sql..")
                .check(MAIN);
    }

    @Test
    void nothingDependsOnTheControlPlaneOpsStatusMetricsDemoOrDatabaseWiring() {
        noClasses().that().resideOutsideOfPackages("..controlplane..", "..ops..")
                .and().resideOutsideOfPackages("..demo..", "..cli..") // clients of the control API: they sign
                .and().resideOutsideOfPackage("..bench..") // signs its provisioning commands: see the rule below
                .should().dependOnClassesThat().resideInAPackage("..controlplane..").check(MAIN);
        noClasses().that().resideOutsideOfPackage("..ops..")
                .should().dependOnClassesThat().resideInAPackage("..ops..").check(MAIN);
        noClasses().that().resideOutsideOfPackage("..metrics..")
                .should().dependOnClassesThat().resideInAPackage("..metrics..").check(MAIN);
        noClasses().that().resideOutsideOfPackage("..demo..")
                .should().dependOnClassesThat().resideInAPackage("..demo..").check(MAIN);
        // Ours, not MicroProfile Health's (org.eclipse.microprofile.health): warmup reports its own readiness check.
        noClasses().that().resideOutsideOfPackages("..health..", "..metrics..", "..ops..", "..status..")
                .should().dependOnClassesThat().resideInAPackage("io.webhookbuffer.health..").check(MAIN);
        noClasses().that().resideOutsideOfPackages("..status..", "..ops..")
                .should().dependOnClassesThat().resideInAPackage("..status..").check(MAIN);
        noClasses().that().resideOutsideOfPackage("..database..")
                .should().dependOnClassesThat().resideInAPackage("..database..").check(MAIN);
    }

    /**
     * Each package-info's "May depend on:" list, read as written: a package whose list names packages of ours depends
     * on those (and their subpackages) and no other of ours. A package-info without such a list (ops, database) states
     * its rule in the tests above.
     */
    @Test
    void everyPackageDependsOnlyOnWhatItsPackageInfoNames() throws IOException {
        List<String> packages = ourPackages();
        int checked = 0;
        for (String pkg : packages) {
            Path info = PACKAGES.resolve(pkg.replace('.', '/')).resolve("package-info.java");
            Matcher rule = MAY_DEPEND_ON.matcher(Files.exists(info) ? Files.readString(info).replace("*", " ") : "");
            if (!rule.find()) {
                continue;
            }
            List<String> allowed = new ArrayList<>();
            allowed.add("io.webhookbuffer." + pkg);
            for (String word : rule.group(1).split("[^a-z.]+")) {
                if (packages.contains(word)) {
                    allowed.add("io.webhookbuffer." + word + "..");
                }
            }
            noClasses().that().resideInAPackage("io.webhookbuffer." + pkg)
                    .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.webhookbuffer..")
                            .and(JavaClass.Predicates.resideOutsideOfPackages(allowed.toArray(String[]::new))))
                    .as(pkg + " may depend on " + allowed + " (its package-info)")
                    .check(MAIN);
            checked++;
        }
        assertTrue(checked >= 15, checked + " package rules read");
    }

    /** The service's packages, relative to io.webhookbuffer ("ratelimit.shared"). */
    private static List<String> ourPackages() throws IOException {
        try (Stream<Path> dirs = Files.walk(PACKAGES)) {
            return dirs.filter(Files::isDirectory).filter(dir -> !dir.equals(PACKAGES))
                    .map(dir -> PACKAGES.relativize(dir).toString().replace('/', '.')).collect(Collectors.toList());
        }
    }

    @Test
    void theBenchmarkIsBesideTheServiceNotInIt() {
        noClasses().that().resideOutsideOfPackage("..bench..")
                .should().dependOnClassesThat().resideInAPackage("..bench..").check(MAIN);
        noClasses().that().resideInAPackage("..bench..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.webhookbuffer..")
                        .and(JavaClass.Predicates.resideOutsideOfPackages("io.webhookbuffer.bench..",
                                "io.webhookbuffer.common.."))
                        // how a control command is signed: pure, and in one place for every client
                        .and(DescribedPredicate.not(JavaClass.Predicates.belongToAnyOf(CommandSignature.class))))
                .check(MAIN);
    }

    @Test
    void theQueueAndTenantReadModelDependOnlyDownward() {
        noClasses().that().resideInAPackage("..queue..")
                .should().dependOnClassesThat().resideInAnyPackage("..ingress..", "..actor..", "..delivery..",
                        "..tenant..", "..controlplane..")
                .check(MAIN);
        noClasses().that().resideInAPackage("..tenant..")
                .should().dependOnClassesThat().resideInAnyPackage("..ingress..", "..actor..", "..delivery..",
                        "..queue..", "..controlplane..")
                .check(MAIN);
    }

    /** The event's way in reads ingress (HTTP, the ingest route) → ingest service (the decisions) → actor. */
    @Test
    void theEndpointMapsHttpAndTheIngestServiceDecides() {
        noClasses().that().belongToAnyOf(IngestRoute.class)
                .should().dependOnClassesThat().resideInAnyPackage("..verify..", "..tenant..", "..usage..", "..queue..")
                .orShould().dependOnClassesThat().belongToAnyOf(TenantActors.class)
                .check(MAIN);
    }

    @Test
    void ingestAndDeliveryDoNotReachIntoEachOther() {
        noClasses().that().resideInAnyPackage("..ingress..", "..actor..")
                .should().dependOnClassesThat().resideInAPackage("..delivery..").check(MAIN);
        noClasses().that().resideInAPackage("..delivery..")
                .should().dependOnClassesThat().resideInAnyPackage("..ingress..", "..actor..").check(MAIN);
        noClasses().that().resideInAPackage("..actor..")
                .should().dependOnClassesThat().resideInAPackage("..ingress..").check(MAIN);
    }

    /** The outbound client and the origin trust rules stand below every capability that calls out. */
    @Test
    void egressDependsOnlyOnCommon() {
        noClasses().that().resideInAPackage("..egress..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.webhookbuffer..")
                        .and(JavaClass.Predicates.resideOutsideOfPackages("io.webhookbuffer.egress..",
                                "io.webhookbuffer.common..")))
                .check(MAIN);
    }

    /**
     * One clock (issue 42): the service reads wall time only through {@code common.BufferClock} (its own time, which a
     * test moves, or the real time another process shares). The exceptions: {@code bufferctl} ({@code cli}), another
     * program on another machine's clock, and {@code SignatureVerifier}'s convenience overload, which the service
     * never calls (it passes the receive time).
     */
    @Test
    void theServiceReadsWallTimeThroughItsOneClock() {
        noClasses().that().resideInAPackage("io.webhookbuffer..")
                .and().doNotHaveFullyQualifiedName("io.webhookbuffer.common.BufferClock")
                .and().doNotHaveFullyQualifiedName("io.webhookbuffer.verify.SignatureVerifier")
                .and().resideOutsideOfPackage("io.webhookbuffer.cli..")
                .should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(Instant.class, "now")
                .orShould().callMethod(OffsetDateTime.class, "now")
                .orShould().callMethod(Clock.class, "systemUTC")
                .check(SERVICE);
    }

    /**
     * A job the scheduler fires once shutdown has begun meets beans already destroyed: at a SIGTERM, the Redis probe
     * and the rate-limit heartbeat re-created their beans after the Redis client had closed and logged
     * "[Error Occurred After Shutdown] ... redisClientAndApi is null" (2 abuse runs of 14). The scheduler itself stops
     * only after the beans it calls, so every job skips outside the application's running span; the work due at
     * shutdown is done by the ShutdownEvent observers (usage flush, replica leave, lease release).
     */
    @Test
    void scheduledJobsSkipOnceShutdownHasBegun() {
        methods().that().areAnnotatedWith(Scheduled.class)
                .should().beAnnotatedWith(new DescribedPredicate<JavaAnnotation<?>>(
                        "@Scheduled(skipExecutionIf = Scheduled.ApplicationNotRunning.class)") {
                    @Override
                    public boolean test(JavaAnnotation<?> annotation) {
                        return annotation.getRawType().isEquivalentTo(Scheduled.class)
                                && annotation.get("skipExecutionIf").map(v -> v instanceof JavaClass c
                                        && c.isEquivalentTo(Scheduled.ApplicationNotRunning.class)).orElse(false);
                    }
                })
                .check(SERVICE);
    }
}
