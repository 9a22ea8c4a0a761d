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
     * The Redis fixture and the HTTP test client reach this module as test-jars, which
     * {@code DoNotIncludeTests} (it looks for {@code test-classes} folders) does not recognise;
     * their tests may use either Redis client and build adapters of their own.
     */
    static final class DoNotIncludeTestJars implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("-tests.jar");
        }
    }
}
