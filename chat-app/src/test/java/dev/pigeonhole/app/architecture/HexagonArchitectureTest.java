package dev.pigeonhole.app.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.ArchTests;

/** Checks every rule of {@link HexagonRules} against the production code of all modules. */
@AnalyzeClasses(packages = "dev.pigeonhole", importOptions = ImportOption.DoNotIncludeTests.class)
class HexagonArchitectureTest {

    @ArchTest
    static final ArchTests hexagon = ArchTests.in(HexagonRules.class);
}
