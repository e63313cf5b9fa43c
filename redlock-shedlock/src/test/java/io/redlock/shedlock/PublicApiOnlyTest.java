package io.redlock.shedlock;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The provider is a user of the library like any other: it reaches the library through io.redlock only. */
class PublicApiOnlyTest {

    @Test
    void theProviderUsesNoInternalClassOfTheLibrary() {
        JavaClasses provider = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.redlock.shedlock");
        noClasses().should().dependOnClassesThat().resideInAPackage("io.redlock.internal..").check(provider);
    }
}
