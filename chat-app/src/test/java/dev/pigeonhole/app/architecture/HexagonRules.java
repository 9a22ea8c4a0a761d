package dev.pigeonhole.app.architecture;

import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Timer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ThreadFactory;

import static com.tngtech.archunit.base.DescribedPredicate.alwaysTrue;
import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.constructors;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The hexagon of docs/DESIGN.md §2 as executable rules, one named field each. Package patterns are relative
 * ({@code ..domain..}) so that {@code HexagonRulesCatchViolationsTest} can aim the very same rules
 * at small deliberately broken fixtures and prove each one fails when it should.
 *
 * <p>Every rule keeps ArchUnit's default {@code failOnEmptyShould}: a rule whose subject matches no
 * class fails rather than passing by saying nothing.
 */
public final class HexagonRules {

    private HexagonRules() {
    }

    /**
     * The rings as a teacher draws them: the domain model (the chat aggregate, values, events,
     * errors) at the centre; the ports around it (use cases in, driven ports out); the
     * application services that serve the use cases; the adapters outside. The composition root
     * wires every ring and the contract suite drives the ports from outside; neither is a ring.
     */
    @ArchTest
    public static final ArchRule layers_point_inwards = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("domain model").definedBy("..domain.model..")
            .layer("ports").definedBy("..domain.port..")
            .layer("application services").definedBy("..domain.service..")
            .layer("adapters").definedBy("..adapter..")
            .whereLayer("adapters").mayNotBeAccessedByAnyLayer()
            .whereLayer("application services").mayNotBeAccessedByAnyLayer()
            .whereLayer("ports").mayOnlyBeAccessedByLayers("application services", "adapters")
            .whereLayer("domain model").mayOnlyBeAccessedByLayers("ports", "application services", "adapters")
            .ignoreDependency(resideInAnyPackage("..app..", "..tck.."), alwaysTrue())
            .because("the hexagon only works if dependencies point inwards: the domain model knows nothing, the "
                    + "ports know the model, the application services know the ports, and adapters plug in from "
                    + "outside");

    /**
     * The model's chapters, as a reader meets them: the root holds what every chapter shares (the
     * ids, the refusals, the millisecond); {@code limits} the bounds; {@code chat} and
     * {@code mailbox} one aggregate each, knowing nothing of the other or of live connections;
     * {@code consent} a user's say over who reaches it, an aggregate as alone as those two (whether
     * two users share a chat is handed to it, never looked up); {@code live} the events that
     * announce what they answer, so it is the one chapter that reads the others.
     */
    @ArchTest
    public static final ArchRule model_chapters_depend_inwards = layeredArchitecture()
            .consideringOnlyDependenciesInLayers()
            .layer("shared").definedBy("..domain.model")
            .layer("limits").definedBy("..domain.model.limits..")
            .layer("chat").definedBy("..domain.model.chat..")
            .layer("mailbox").definedBy("..domain.model.mailbox..")
            .layer("consent").definedBy("..domain.model.consent..")
            .layer("live").definedBy("..domain.model.live..")
            .whereLayer("live").mayNotBeAccessedByAnyLayer()
            .whereLayer("chat").mayOnlyBeAccessedByLayers("live")
            .whereLayer("mailbox").mayOnlyBeAccessedByLayers("live")
            .whereLayer("consent").mayOnlyBeAccessedByLayers("live")
            .whereLayer("limits").mayOnlyBeAccessedByLayers("chat", "mailbox", "live")
            .because("a reader opens one chapter and finds it whole: an aggregate that reached into another, or "
                    + "into the live events that announce it, could no longer be read, tested or changed alone");

    @ArchTest
    public static final ArchRule domain_depends_on_the_jdk_alone = classes()
            .that().resideInAPackage("..domain..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "..domain..")
            .because("a framework, a client library or even a logger in the domain would travel into every "
                    + "adapter and make the domain untestable on its own");

    @ArchTest
    public static final ArchRule the_domain_starts_no_threads = noClasses()
            .that().resideInAPackage("..domain..")
            .should().dependOnClassesThat().belongToAnyOf(Thread.class, Thread.Builder.class, ThreadFactory.class,
                    Executor.class, Executors.class, ForkJoinPool.class, CompletableFuture.class, Timer.class)
            .because("threads, executors and timers are the composition root's to create and size; a domain "
                    + "that starts its own hides work no one can bound, stop or test");

    @ArchTest
    public static final ArchRule adapters_never_see_each_other = slices()
            .matching("..adapter.(*)..")
            .should().notDependOnEachOther()
            .because("swapping one backend for another must not drag the first one along");

    @ArchTest
    public static final ArchRule adapters_never_see_domain_services = noClasses()
            .that().resideInAPackage("..adapter..")
            .should().dependOnClassesThat().resideInAPackage("..domain.service..")
            .because("adapters implement driven ports or call use cases; a service is an implementation "
                    + "detail of the domain that only the composition root wires");

    @ArchTest
    public static final ArchRule only_the_app_constructs_adapters = constructors()
            .that().areDeclaredInClassesThat().resideInAPackage("..adapter..")
            .should().onlyBeCalled().byClassesThat().resideInAnyPackage("..app..", "..adapter..")
            .because("the composition root is the one place that decides which backend runs; an adapter "
                    + "built anywhere else is a hidden second decision");

    @ArchTest
    public static final ArchRule driven_ports_are_interfaces = classes()
            .that().resideInAPackage("..domain.port.out..")
            .and().areTopLevelClasses()
            .and().areNotRecords()
            .should().beInterfaces()
            .because("a driven port is a promise any backend can keep; only the values it returns "
                    + "(records) may be concrete");

    @ArchTest
    public static final ArchRule use_cases_are_interfaces = classes()
            .that().resideInAPackage("..domain.port.in..")
            .and().areTopLevelClasses()
            .should().beInterfaces()
            .because("a driving adapter depends on what the application can do, never on how a service does it");

    @ArchTest
    public static final ArchRule ports_are_named_as_domain_nouns = noClasses()
            .that().resideInAPackage("..domain.port..")
            .should().haveSimpleNameEndingWith("Port")
            .orShould().haveSimpleNameEndingWith("Adapter")
            .orShould().haveSimpleNameContaining("Redis")
            .orShould().haveSimpleNameContaining("Memory")
            .because("a port names what the domain needs (Chats, Mailboxes), never a technology or the pattern");

    @ArchTest
    public static final ArchRule in_memory_adapters_are_named_for_their_technology = classes()
            .that().resideInAPackage("..adapter.inmemory..")
            .and().arePublic()
            .and().areTopLevelClasses()
            .should().haveSimpleNameStartingWith("InMemory")
            .because("an adapter is named <Tech><Port>, so InMemoryChats is found next to RedisChats");

    @ArchTest
    public static final ArchRule redis_adapters_are_named_for_their_technology = classes()
            .that().resideInAPackage("..adapter.redis..")
            .and().implement(resideInAPackage("..domain.port.out.."))
            .should().haveSimpleNameStartingWith("Redis")
            .because("an adapter is named <Tech><Port>: RedisChats is the Chats port on Redis, whichever client "
                    + "carries it");

    @ArchTest
    public static final ArchRule postgres_adapters_are_named_for_their_technology = classes()
            .that().resideInAPackage("..adapter.postgres..")
            .and().implement(resideInAPackage("..domain.port.out.."))
            .should().haveSimpleNameStartingWith("Postgres")
            .because("an adapter is named <Tech><Port>: PostgresChats is the Chats port on PostgreSQL, found "
                    + "next to RedisChats and InMemoryChats");

    @ArchTest
    public static final ArchRule only_the_postgres_adapter_touches_sql = noClasses()
            .that().resideOutsideOfPackage("..adapter.postgres..")
            .should().dependOnClassesThat().resideInAnyPackage("java.sql..", "javax.sql..", "org.postgresql..",
                    "com.zaxxer..", "org.flywaydb..")
            .because("JDBC, the PostgreSQL driver, the connection pool and the migrations are how one store "
                    + "keeps its data; anywhere else they would tie the domain or another store to PostgreSQL, "
                    + "and a driver's exception would reach a caller");

    @ArchTest
    public static final ArchRule only_the_jedis_driver_touches_jedis = noClasses()
            .that().resideOutsideOfPackage("..adapter.redis.jedis..")
            .should().dependOnClassesThat().resideInAPackage("redis.clients..")
            .because("the Redis algorithm is written once against the driver interface; a Jedis type anywhere "
                    + "else would tie it to one client and make the clients impossible to compare");

    @ArchTest
    public static final ArchRule only_the_lettuce_driver_touches_lettuce = noClasses()
            .that().resideOutsideOfPackage("..adapter.redis.lettuce..")
            .should().dependOnClassesThat().resideInAPackage("io.lettuce..")
            .because("the Redis algorithm is written once against the driver interface; a Lettuce type anywhere "
                    + "else would tie it to one client and make the clients impossible to compare");

    @ArchTest
    public static final ArchRule only_the_redisson_driver_touches_redisson = noClasses()
            .that().resideOutsideOfPackage("..adapter.redis.redisson..")
            .should().dependOnClassesThat().resideInAPackage("org.redisson..")
            .because("the Redis algorithm is written once against the driver interface; a Redisson type anywhere "
                    + "else would tie it to one client and make the clients impossible to compare");

    @ArchTest
    public static final ArchRule only_the_glide_driver_touches_glide = noClasses()
            .that().resideOutsideOfPackage("..adapter.redis.glide..")
            .should().dependOnClassesThat().resideInAPackage("glide..")
            .because("the Redis algorithm is written once against the driver interface; a GLIDE type anywhere "
                    + "else would tie it to one client and make the clients impossible to compare");

    @ArchTest
    public static final ArchRule the_redis_algorithm_never_sees_a_driver = noClasses()
            .that().resideInAPackage("..adapter.redis")
            .should().dependOnClassesThat().resideInAnyPackage("..adapter.redis.jedis..", "..adapter.redis.lettuce..",
                    "..adapter.redis.redisson..", "..adapter.redis.glide..")
            .because("keys, scripts and JSON live once, above every driver; only the composition root picks a client");

    @ArchTest
    public static final ArchRule redis_drivers_never_see_each_other = slices()
            .matching("..adapter.redis.(*)..")
            .should().notDependOnEachOther()
            .because("each driver is a thin translation of one client; sharing code between them would hide "
                    + "which client a benchmark measures");

    @ArchTest
    public static final ArchRule the_http_adapter_drives_use_cases_only = noClasses()
            .that().resideInAPackage("..adapter.http..")
            .should().dependOnClassesThat().resideInAPackage("..domain.port.out..")
            .because("a driving adapter asks the application what it can do (port.in); reaching a driven port "
                    + "would skip what the services do around the store, such as the configured limits, the clock "
                    + "and announcing membership changes");

    @ArchTest
    public static final ArchRule only_the_http_adapter_touches_the_web_server = noClasses()
            .that().resideOutsideOfPackage("..adapter.http..")
            .should().dependOnClassesThat().resideInAnyPackage("io.javalin..", "org.eclipse.jetty..")
            .because("HTTP is one way in among several (the demo command drives the use cases directly); the web "
                    + "framework stays in the adapter that speaks it, so replacing it touches one module");

    @ArchTest
    public static final ArchRule only_the_http_adapter_handles_tokens = noClasses()
            .that().resideOutsideOfPackage("..adapter.http..")
            .should().dependOnClassesThat().resideInAPackage("com.nimbusds..")
            .because("who the caller is gets settled at the edge; the domain receives a UserId it can trust");

    @ArchTest
    public static final ArchRule metrics_stay_at_the_edge = noClasses()
            .that().resideOutsideOfPackages("..adapter.http..", "..app..")
            .should().dependOnClassesThat(resideInAPackage("io.micrometer..").and(not(equivalentTo(MeterRegistry.class))))
            .because("requests are counted where they arrive and the registry is built by the composition root; "
                    + "a store only hands that registry on to its client library (HikariCP's pool, Lettuce's "
                    + "command latencies) and counts nothing itself");

    @ArchTest
    public static final ArchRule tracing_stays_at_the_edge = noClasses()
            .that().resideOutsideOfPackages("..adapter.http..", "..app..")
            .should().dependOnClassesThat().resideInAPackage("io.opentelemetry..")
            .because("a request's span starts where it arrives and the composition root wraps the use cases and "
                    + "ports from outside; the domain and the stores are traced without knowing it");

    @ArchTest
    public static final ArchRule only_the_composition_root_builds_the_tracing_sdk = noClasses()
            .that().resideOutsideOfPackage("..app..")
            .should().dependOnClassesThat().resideInAPackage("io.opentelemetry.sdk..")
            .because("the HTTP adapter traces through the API, a no-op until the composition root hands it an SDK "
                    + "built for the configured endpoint; an SDK built anywhere else would be a second decision "
                    + "about where spans go");

    @ArchTest
    public static final ArchRule the_live_codec_speaks_json_about_the_model_alone = classes()
            .that().resideInAPackage("..codec..")
            .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "tools.jackson.core..", "..domain.model..",
                    "..codec..")
            .because("the form events take between servers is shared by every store that carries them; a client, "
                    + "a framework or a store's type in it would tie one store's wire to another's");

    @ArchTest
    public static final ArchRule the_contract_suite_sees_ports_not_adapters = noClasses()
            .that().resideInAPackage("..tck..")
            .should().dependOnClassesThat().resideInAnyPackage("..adapter..", "..app..")
            .because("one contract suite proves every backend the same; it can only do that through the ports");

    @ArchTest
    public static final ArchRule only_tests_and_benchmarks_use_the_books_algorithm = noClasses()
            .that().resideOutsideOfPackages("..book..", "..benchmarks..")
            .should().dependOnClassesThat().resideInAPackage("..book..")
            .because("the book's locked send and per-chat fetch are what the project is measured against and "
                    + "the second writer of the interop tests; production code calling them would bring back the "
                    + "races and round trips the chat aggregate and its scripts fix");

    @ArchTest
    public static final ArchRule production_code_never_depends_on_test_support = noClasses()
            .that().resideOutsideOfPackage("..testsupport..")
            .should().dependOnClassesThat().resideInAPackage("..testsupport..")
            .because("the servers, processes and clock the tests share are for tests alone: production code "
                    + "reaching them would start a store of its own or run on a clock no one moves, and only "
                    + "the test scope of a Maven dependency keeps them out of the running system");

    @ArchTest
    public static final ArchRule no_package_cycles = slices()
            .matching("dev.pigeonhole.(**)")
            .should().beFreeOfCycles()
            .because("a cycle makes two packages one, and the hexagon's boundaries stop meaning anything");
}
