package org.llmplatform.automation;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The service's packages (rest, service, delivery, template, store, ...) depend on each other without a cycle. */
class PackageCyclesTest {

    @Test
    void noCycleBetweenPackages() {
        slices().matching("org.llmplatform.automation.(*)..").should().beFreeOfCycles()
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("org.llmplatform.automation"));
    }
}
