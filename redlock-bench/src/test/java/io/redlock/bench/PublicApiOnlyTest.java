package io.redlock.bench;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The benchmarks measure the library as its users get it: through io.redlock only. Every class this module compiles
 * (harness and all, whatever its package) is checked; the microbenchmarks of the internals are core's own tests.
 */
class PublicApiOnlyTest {

    @Test
    void theBenchmarksUseNoInternalClassOfTheLibrary() {
        // by location, not by package: a class of this module put in io.redlock.internal is caught too
        Path[] outputs = Stream.of("target/classes", "target/test-classes").map(Path::of).filter(Files::isDirectory)
                .toArray(Path[]::new);
        JavaClasses bench = new ClassFileImporter().importPaths(outputs);
        noClasses().should().dependOnClassesThat().resideInAPackage("io.redlock.internal..")
                .orShould().resideInAPackage("io.redlock.internal..").check(bench);
    }
}
