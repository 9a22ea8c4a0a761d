package dev.pigeonhole.app.architecture;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.junit.ArchTests;

/** Checks every rule of {@link HexagonRules} against the production code of all modules. */
@AnalyzeClasses(packages = "dev.pigeonhole",
        importOptions = {ImportOption.DoNotIncludeTests.class, HexagonArchitectureTest.DoNotIncludeTestJars.class})
class HexagonArchitectureTest {

    @ArchTest
    static final ArchTests hexagon = ArchTests.in(HexagonRules.class);

    /**
     * The HTTP adapter's test clients reach this module as a test-jar, which
     * {@code DoNotIncludeTests} (it looks for {@code test-classes} folders) does not recognise. The
     * test support is production code of its own module, and is checked with the rest.
     */
    static final class DoNotIncludeTestJars implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("-tests.jar");
        }
    }
}
