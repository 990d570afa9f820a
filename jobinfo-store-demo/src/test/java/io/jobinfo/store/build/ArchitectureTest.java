package io.jobinfo.store.build;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Rules over the main code of every module on this module's classpath (the SPI, the core, the backends, the SeaTunnel
 * codec and drop-in, the command line tool and this demo), read from the compiled classes, so that the layout the
 * issues asked for cannot drift back: no package cycle, an SPI free of Hazelcast, Kryo, Caffeine and Micrometer, a
 * lifecycle core that knows neither the registry nor the tools, and a drop-in that imports no registry or tool class.
 */
class ArchitectureTest {

    static JavaClasses main;

    @BeforeAll
    static void importMainCode() {
        main = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ArchitectureTest::notATestJar)
                .importPackages("io.jobinfo.store");
        // the import must have found each layer, or every rule below would pass on nothing
        assertThat(main.containPackage("io.jobinfo.store.spi")).isTrue();
        assertThat(main.containPackage("io.jobinfo.store.lifecycle")).isTrue();
        assertThat(main.containPackage("io.jobinfo.store.seatunnel.dropin")).isTrue();
        assertThat(main.containPackage("io.jobinfo.store.cli.ops")).isTrue();
        assertThat(main.containPackage("io.jobinfo.store.s3")).isTrue();
    }

    /**
     * This project's main classes only: its jars and class directories ({@code jobinfo-store-*}), not its test-jars
     * ({@code *-tests.jar}) or test output, and not the third-party jars (reading them all takes half a minute).
     */
    private static boolean notATestJar(Location location) {
        return location.contains("jobinfo-store") && !location.contains("-tests.jar")
                && !location.contains("/test-classes/");
    }

    @Test
    void noPackageCycleInMainCode() {
        slices().matching("io.jobinfo.store.(**)").should().beFreeOfCycles().check(main);
    }

    @Test
    void theSpiDependsOnNoEngineOrCachingLibraryAndOnNothingAboveIt() {
        noClasses().that().resideInAnyPackage("io.jobinfo.store.spi", "io.jobinfo.store.envelope",
                        "io.jobinfo.store.codec", "io.jobinfo.store.config")
                .should().dependOnClassesThat().resideInAnyPackage("com.hazelcast..", "com.esotericsoftware..",
                        "com.github.benmanes..", "io.micrometer..", "io.jobinfo.store.lifecycle..",
                        "io.jobinfo.store.service..", "io.jobinfo.store.ops..", "io.jobinfo.store.metering..",
                        "io.jobinfo.store.codec.kryo..", "io.jobinfo.store.seatunnel..")
                .check(main);
    }

    @Test
    void theLifecycleCoreKnowsNeitherTheRegistryNorTheTools() {
        noClasses().that().resideInAPackage("io.jobinfo.store.lifecycle..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jobinfo.store.service..",
                        "io.jobinfo.store.ops..", "io.jobinfo.store.cli..", "io.jobinfo.store.seatunnel..")
                .check(main);
    }

    @Test
    void theDropInImportsNoRegistryOrToolClass() {
        noClasses().that().resideInAPackage("io.jobinfo.store.seatunnel..")
                .should().dependOnClassesThat().resideInAnyPackage("io.jobinfo.store.service..",
                        "io.jobinfo.store.ops..", "io.jobinfo.store.cli..")
                .check(main);
    }
}
