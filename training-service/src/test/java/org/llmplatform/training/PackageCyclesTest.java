package org.llmplatform.training;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The service's packages depend on each other without a cycle: rest and messaging (Kafka in) call service,
 * service publishes through outbound (Kafka out) and stores through store.
 */
class PackageCyclesTest {

    @Test
    void noCycleBetweenPackages() {
        slices().matching("org.llmplatform.training.(*)..").should().beFreeOfCycles()
                .check(new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("org.llmplatform.training"));
    }
}
