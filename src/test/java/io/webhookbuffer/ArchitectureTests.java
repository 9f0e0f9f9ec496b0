package io.webhookbuffer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;

/** The dependency directions each package-info states, enforced so they cannot drift. */
class ArchitectureTests {

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.webhookbuffer");

    @Test
    void pureParts_importNoFrameworks() {
        noClasses().that().resideInAnyPackage("..verify..", "..ratelimit..")
                .should().dependOnClassesThat().resideInAnyPackage("io.quarkus..", "io.vertx..", "io.smallrye..",
                        "jakarta..", "java.sql..")
                .check(MAIN);
    }

    @Test
    void nothingDependsOnTheControlPlaneOpsMetricsDemoOrDatabaseWiring() {
        noClasses().that().resideOutsideOfPackages("..controlplane..", "..ops..")
                .and().resideOutsideOfPackages("..demo..", "..cli..") // clients of the control API: they sign
                .should().dependOnClassesThat().resideInAPackage("..controlplane..").check(MAIN);
        noClasses().that().resideOutsideOfPackage("..ops..")
                .should().dependOnClassesThat().resideInAPackage("..ops..").check(MAIN);
        noClasses().that().resideOutsideOfPackage("..metrics..")
                .should().dependOnClassesThat().resideInAPackage("..metrics..").check(MAIN);
        noClasses().that().resideOutsideOfPackage("..demo..")
                .should().dependOnClassesThat().resideInAPackage("..demo..").check(MAIN);
        noClasses().that().resideOutsideOfPackages("..health..", "..metrics..", "..ops..")
                .should().dependOnClassesThat().resideInAPackage("..health..").check(MAIN);
        noClasses().that().resideOutsideOfPackage("..database..")
                .should().dependOnClassesThat().resideInAPackage("..database..").check(MAIN);
    }

    @Test
    void theBenchmarkIsBesideTheServiceNotInIt() {
        noClasses().that().resideOutsideOfPackage("..bench..")
                .should().dependOnClassesThat().resideInAPackage("..bench..").check(MAIN);
        noClasses().that().resideInAPackage("..bench..")
                .should().dependOnClassesThat(JavaClass.Predicates.resideInAPackage("io.webhookbuffer..")
                        .and(JavaClass.Predicates.resideOutsideOfPackages("io.webhookbuffer.bench..",
                                "io.webhookbuffer.common..")))
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

    @Test
    void ingestAndDeliveryDoNotReachIntoEachOther() {
        noClasses().that().resideInAnyPackage("..ingress..", "..actor..")
                .should().dependOnClassesThat().resideInAPackage("..delivery..").check(MAIN);
        noClasses().that().resideInAPackage("..delivery..")
                .should().dependOnClassesThat().resideInAnyPackage("..ingress..", "..actor..").check(MAIN);
        noClasses().that().resideInAPackage("..actor..")
                .should().dependOnClassesThat().resideInAPackage("..ingress..").check(MAIN);
    }
}
