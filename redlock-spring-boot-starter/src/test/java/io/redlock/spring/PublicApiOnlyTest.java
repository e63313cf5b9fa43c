package io.redlock.spring;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The starter is a user of the library like any other: it reaches the library through io.redlock only. */
class PublicApiOnlyTest {

    @Test
    void theStarterUsesNoInternalClassOfTheLibrary() {
        JavaClasses starter = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.redlock.spring");
        noClasses().should().dependOnClassesThat().resideInAPackage("io.redlock.internal..").check(starter);
    }
}
