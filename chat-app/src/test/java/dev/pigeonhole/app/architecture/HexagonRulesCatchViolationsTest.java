package dev.pigeonhole.app.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A rule that never fails proves nothing. Each test aims one rule of {@link HexagonRules} at a
 * fixture package ({@code dev.pigeonhole.archfixture}) broken in exactly that way, and checks the
 * rule names the offending class.
 */
class HexagonRulesCatchViolationsTest {

    private static final String FIXTURES = "dev.pigeonhole.archfixture.";

    @Test
    void layers_point_inwards_catches_a_model_that_depends_on_a_port() {
        assertViolation(HexagonRules.layers_point_inwards, "inwards", "LeakyValue");
    }

    @Test
    void domain_depends_on_the_jdk_alone_catches_a_library_in_the_domain() {
        assertViolation(HexagonRules.domain_depends_on_the_jdk_alone, "jdkonly", "FrameworkValue");
    }

    @Test
    void model_chapters_depend_inwards_catches_an_aggregate_that_builds_live_events() {
        assertViolation(HexagonRules.model_chapters_depend_inwards, "chapters", "AnnouncingOutcome");
    }

    @Test
    void model_chapters_depend_inwards_catches_the_shared_root_reaching_into_a_chapter() {
        assertViolation(HexagonRules.model_chapters_depend_inwards, "chapters", "LimitedId");
    }

    @Test
    void the_live_codec_speaks_json_about_the_model_alone_catches_a_codec_that_logs() {
        assertViolation(HexagonRules.the_live_codec_speaks_json_about_the_model_alone, "codec", "ChattyCodec");
    }

    @Test
    void the_domain_starts_no_threads_catches_a_service_starting_one() {
        assertViolation(HexagonRules.the_domain_starts_no_threads, "threads", "BusyService");
    }

    @Test
    void adapters_never_see_each_other_catches_an_adapter_using_another() {
        assertViolation(HexagonRules.adapters_never_see_each_other, "adapters", "RedisThings");
    }

    @Test
    void adapters_never_see_domain_services_catches_an_adapter_calling_a_service() {
        assertViolation(HexagonRules.adapters_never_see_domain_services, "services", "InMemoryShortcut");
    }

    @Test
    void only_the_app_constructs_adapters_catches_a_service_building_its_backend() {
        assertViolation(HexagonRules.only_the_app_constructs_adapters, "construction", "SelfWiringService");
    }

    @Test
    void driven_ports_are_interfaces_catches_a_class_port() {
        assertViolation(HexagonRules.driven_ports_are_interfaces, "ports", "ThingStore");
    }

    @Test
    void use_cases_are_interfaces_catches_a_class_use_case() {
        assertViolation(HexagonRules.use_cases_are_interfaces, "ports", "DoThing");
    }

    @Test
    void ports_are_named_as_domain_nouns_catches_a_port_suffix() {
        assertViolation(HexagonRules.ports_are_named_as_domain_nouns, "naming", "ThingsPort");
    }

    @Test
    void in_memory_adapters_are_named_for_their_technology_catches_a_nameless_adapter() {
        assertViolation(HexagonRules.in_memory_adapters_are_named_for_their_technology, "naming", "FastThings");
    }

    @Test
    void redis_adapters_are_named_for_their_technology_catches_a_nameless_adapter() {
        assertViolation(HexagonRules.redis_adapters_are_named_for_their_technology, "naming", "QuickThings");
    }

    @Test
    void postgres_adapters_are_named_for_their_technology_catches_a_nameless_adapter() {
        assertViolation(HexagonRules.postgres_adapters_are_named_for_their_technology, "naming", "SqlThings");
    }

    @Test
    void only_the_postgres_adapter_touches_sql_catches_jdbc_in_another_store() {
        assertViolation(HexagonRules.only_the_postgres_adapter_touches_sql, "sql", "JdbcBackedStore");
    }

    @Test
    void only_the_postgres_adapter_touches_sql_catches_the_pool_in_the_composition_root() {
        assertViolation(HexagonRules.only_the_postgres_adapter_touches_sql, "sql", "PoolBuildingWiring");
    }

    @Test
    void adapters_never_see_each_other_catches_the_postgres_adapter_leaning_on_redis() {
        assertViolation(HexagonRules.adapters_never_see_each_other, "neighbours", "PostgresLeaningThings");
    }

    @Test
    void only_the_jedis_driver_touches_jedis_catches_jedis_in_the_algorithm() {
        assertViolation(HexagonRules.only_the_jedis_driver_touches_jedis, "clients", "ScriptsOnJedis");
    }

    @Test
    void only_the_lettuce_driver_touches_lettuce_catches_lettuce_in_the_algorithm() {
        assertViolation(HexagonRules.only_the_lettuce_driver_touches_lettuce, "clients", "ScriptsOnLettuce");
    }

    @Test
    void only_the_redisson_driver_touches_redisson_catches_redisson_in_the_algorithm() {
        assertViolation(HexagonRules.only_the_redisson_driver_touches_redisson, "clients", "ScriptsOnRedisson");
    }

    @Test
    void only_the_glide_driver_touches_glide_catches_glide_in_the_algorithm() {
        assertViolation(HexagonRules.only_the_glide_driver_touches_glide, "clients", "ScriptsOnGlide");
    }

    @Test
    void the_redis_algorithm_never_sees_a_driver_catches_keys_that_pick_a_client() {
        assertViolation(HexagonRules.the_redis_algorithm_never_sees_a_driver, "drivers", "ClientPickingKeys");
    }

    @Test
    void redis_drivers_never_see_each_other_catches_one_driver_borrowing_from_the_other() {
        assertViolation(HexagonRules.redis_drivers_never_see_each_other, "drivers", "BorrowingDriver");
    }

    @Test
    void the_contract_suite_sees_ports_not_adapters_catches_a_contract_bound_to_a_backend() {
        assertViolation(HexagonRules.the_contract_suite_sees_ports_not_adapters, "tck", "ThingsContract");
    }

    @Test
    void the_http_adapter_drives_use_cases_only_catches_a_route_reaching_a_store() {
        assertViolation(HexagonRules.the_http_adapter_drives_use_cases_only, "usecases", "StoreReachingRoute");
    }

    @Test
    void only_the_http_adapter_touches_the_web_server_catches_javalin_in_a_store() {
        assertViolation(HexagonRules.only_the_http_adapter_touches_the_web_server, "edge", "WebAwareStore");
    }

    @Test
    void only_the_http_adapter_handles_tokens_catches_a_store_reading_jwts() {
        assertViolation(HexagonRules.only_the_http_adapter_handles_tokens, "edge", "TokenReadingStore");
    }

    @Test
    void metrics_stay_at_the_edge_catches_a_store_counting_for_itself() {
        assertViolation(HexagonRules.metrics_stay_at_the_edge, "edge", "SelfCountingStore");
    }

    @Test
    void tracing_stays_at_the_edge_catches_a_store_making_its_own_spans() {
        assertViolation(HexagonRules.tracing_stays_at_the_edge, "edge", "SelfTracingStore");
    }

    @Test
    void only_the_composition_root_builds_the_tracing_sdk_catches_the_http_adapter_building_one() {
        assertViolation(HexagonRules.only_the_composition_root_builds_the_tracing_sdk, "edge", "SdkBuildingServer");
    }

    @Test
    void only_tests_and_benchmarks_use_the_books_algorithm_catches_a_store_that_sends_the_books_way() {
        assertViolation(HexagonRules.only_tests_and_benchmarks_use_the_books_algorithm, "bookrule", "LockingStore");
    }

    @Test
    void production_code_never_depends_on_test_support_catches_wiring_on_a_test_clock() {
        assertViolation(HexagonRules.production_code_never_depends_on_test_support, "testscope", "ClockedWiring");
    }

    @Test
    void no_package_cycles_catches_two_packages_that_need_each_other() {
        assertViolation(HexagonRules.no_package_cycles, "cycle", "Left");
    }

    @Test
    void a_rule_aimed_at_nothing_fails_instead_of_passing_silently() {
        JavaClasses nothing = new ClassFileImporter().importPackages(FIXTURES + "doesnotexist");

        assertThatThrownBy(() -> HexagonRules.driven_ports_are_interfaces.check(nothing))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("failed to check any classes");
    }

    private static void assertViolation(ArchRule rule, String fixture, String offender) {
        JavaClasses broken = new ClassFileImporter().importPackages(FIXTURES + fixture);

        assertThatThrownBy(() -> rule.check(broken))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining(offender);
    }
}
