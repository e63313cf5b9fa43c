package io.redlock.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The command is a user of the library like any other: it reaches the library through io.redlock only. */
class PublicApiOnlyTest {

    @Test
    void theCommandUsesNoInternalClassOfTheLibrary() {
        JavaClasses command = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.redlock.cli");
        noClasses().should().dependOnClassesThat().resideInAPackage("io.redlock.internal..").check(command);
    }
}
