package org.llmplatform.tracing;

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
 * The package rule of docs/tracing-service.md#packages over the service's main classes: features may use
 * the generic packages (common, query, http) and each other without a cycle; the generic packages use no
 * feature, and refs/ reads other features' values only through the interfaces it defines.
 */
class PackageRulesTest {

    private static final String TRACING = "org.llmplatform.tracing..";
    private static final String COMMON = "org.llmplatform.tracing.common..";
    private static final String QUERY = "org.llmplatform.tracing.query..";
    private static final String HTTP = "org.llmplatform.tracing.http..";
    private static final String REFS = "org.llmplatform.tracing.refs..";

    private static JavaClasses main;

    @BeforeAll
    static void importMainClasses() {
        main = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("org.llmplatform.tracing");
    }

    @Test
    void noCycleBetweenPackages() {
        slices().matching("org.llmplatform.tracing.(*)..").should().beFreeOfCycles().check(main);
    }

    @Test
    void commonUsesNoOtherPackage() {
        onlyWithin(COMMON, COMMON);
    }

    @Test
    void queryIsTheGenericQueryCompilerAndUsesNoFeature() {
        onlyWithin(QUERY, QUERY, COMMON);
    }

    @Test
    void httpUsesNoFeature() {
        onlyWithin(HTTP, HTTP, QUERY, COMMON);
    }

    @Test
    void refsReadNoFeaturesStore() {
        onlyWithin(REFS, REFS, HTTP, QUERY, COMMON);
    }

    /** Classes of {@code layer} depend on classes of the service only in {@code allowed}. */
    private static void onlyWithin(String layer, String... allowed) {
        classes().that().resideInAPackage(layer)
                .should().onlyDependOnClassesThat(not(resideInAPackage(TRACING)).or(resideInAnyPackage(allowed)))
                .check(main);
    }
}
