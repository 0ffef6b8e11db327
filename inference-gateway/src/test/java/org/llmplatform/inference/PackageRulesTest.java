package org.llmplatform.inference;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The package rule of docs/inference-gateway.md#packages over the gateway's main classes: features use each other
 * without a cycle; config, http and catalog (the models the configuration names) use no feature, and the chat
 * feature reaches the embedded engine only through the {@code EmbeddedChat} interface it defines.
 */
class PackageRulesTest {

    private static final String GATEWAY = "org.llmplatform.inference..";
    private static final String CONFIG = "org.llmplatform.inference.config..";
    private static final String HTTP = "org.llmplatform.inference.http..";
    private static final String CATALOG = "org.llmplatform.inference.catalog..";

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.llmplatform.inference");
    }

    @Test
    void noCycleBetweenPackages() {
        slices().matching("org.llmplatform.inference.(*)..").should().beFreeOfCycles().check(main);
    }

    @Test
    void configUsesNoOtherPackage() {
        onlyWithin(CONFIG, CONFIG);
    }

    @Test
    void httpUsesNoFeature() {
        onlyWithin(HTTP, HTTP, CONFIG);
    }

    @Test
    void catalogReadsOnlyTheConfiguration() {
        onlyWithin(CATALOG, CATALOG, CONFIG);
    }

    /** Classes of {@code layer} depend on classes of the gateway only in {@code allowed}. */
    private static void onlyWithin(String layer, String... allowed) {
        classes().that().resideInAPackage(layer)
                .should().onlyDependOnClassesThat(not(resideInAPackage(GATEWAY)).or(resideInAnyPackage(allowed)))
                .check(main);
    }
}
