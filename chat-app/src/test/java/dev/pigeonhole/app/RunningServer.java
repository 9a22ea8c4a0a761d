package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import tools.jackson.databind.JsonNode;

import java.security.SecureRandom;
import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A whole Pigeonhole server for a test, the real composition root behind the real HTTP adapter on
 * a free loopback port with dev login on, started before the test and stopped after it.
 * Registered on an instance field it serves each test method; on a static field, the whole class:
 *
 * <pre>{@code
 * @RegisterExtension
 * final RunningServer server = RunningServer.on(AppConfig::defaults);
 * }</pre>
 *
 * <p>Its users let anyone add them, as the book's do, so the many tests about chats, live push and
 * the page meet no invitations; a test of consent asks for the server as it ships
 * ({@link #asShipped}), where only co-members add one directly.
 *
 * <p>Instances {@link #alongside} one another are one deployment, as behind a load balancer: the
 * same store, the same JWT secret, so each accepts the others' tokens. A resource the deployment's
 * store needs (a Redis of the test's own) is {@linkplain #closesAfterwards closed} once every one
 * of its instances has stopped.
 */
public final class RunningServer implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback,
        AfterAllCallback {

    private final Deployment deployment;
    private final UnaryOperator<AppConfig> variant;
    private final boolean startsItself;
    private boolean forTheClass;
    private AppConfig config;
    private Server server;
    private ApiClient api;
    /** The port it last ran on, kept across {@link #stop()} for {@link #restart()}. */
    private int port;

    private RunningServer(Deployment deployment, UnaryOperator<AppConfig> variant, boolean startsItself) {
        this.deployment = deployment;
        this.variant = variant;
        this.startsItself = startsItself;
        deployment.instances++;
    }

    /** A server on the store {@code store} gives, asked afresh for each test (or class) it serves. */
    public static RunningServer on(Supplier<AppConfig> store) {
        return new RunningServer(new Deployment(Objects.requireNonNull(store, "store")), UnaryOperator.identity(), true);
    }

    /** A server the test starts itself ({@link #start(AppConfig)}), for a test that picks its own configuration. */
    public static RunningServer startedByTheTest() {
        return new RunningServer(new Deployment(null), UnaryOperator.identity(), false);
    }

    /** Another instance of this deployment, on the same store and secret. */
    public RunningServer alongside() {
        return alongside(UnaryOperator.identity());
    }

    /** Another instance of this deployment, on the same store changed by {@code variant} (another client, say). */
    public RunningServer alongside(UnaryOperator<AppConfig> variant) {
        UnaryOperator<AppConfig> mine = this.variant;
        return new RunningServer(deployment, config -> variant.apply(mine.apply(config)), startsItself);
    }

    /** The server configuration every instance of this deployment starts with, changed by {@code change}. */
    public RunningServer configured(UnaryOperator<ServerConfig> change) {
        deployment.serverConfig = change.apply(deployment.serverConfig);
        return this;
    }

    /** Every instance of this deployment with the consent the server ships with: co-members add directly, others invite. */
    public RunningServer asShipped() {
        deployment.consent = UnaryOperator.identity();
        return this;
    }

    /** The clock every instance of this deployment runs on, the system's unless the test drives one. */
    public RunningServer clock(InstantSource clock) {
        deployment.clock = Objects.requireNonNull(clock, "clock");
        return this;
    }

    /**
     * Closes {@code resource} once every instance of this deployment has stopped, for something its
     * store needs that must outlive the servers (a Redis of the test's own), and returns it.
     */
    public <T extends AutoCloseable> T closesAfterwards(T resource) {
        deployment.closeAfterwards(resource);
        return resource;
    }

    /** Starts this instance on {@code config}, for a server the test starts itself. */
    public void start(AppConfig config) {
        if (server != null) {
            throw new IllegalStateException("this server runs already, on port " + server.port());
        }
        this.config = deployment.consent.apply(config);
        launch(deployment.serverConfig());
    }

    /** Stops this instance as if its process went away; {@link #restart()} brings it back. */
    public void stop() {
        Server stopping = running();
        api.close();
        server = null;
        stopping.close();
    }

    /** Starts this instance again on the same port and store, after {@link #stop()}. */
    public void restart() {
        if (server != null || config == null) {
            throw new IllegalStateException("only a stopped server restarts");
        }
        launch(deployment.serverConfig().withPort(port));
    }

    public int port() {
        return running().port();
    }

    /** An HTTP client of this instance, its own since it started. */
    public ApiClient api() {
        running();
        return api;
    }

    /** The backend in words, as the server says it. */
    public String store() {
        return running().store();
    }

    /**
     * Opens a chat through this instance as the holder of {@code token}, {@code first} its first
     * message, and returns its id; any answer but a 201 fails the test.
     */
    public String openChat(String token, List<String> members, String first) {
        ApiClient.Response created = api().postJson("/api/chats", token, Map.of("members", members, "message", first));
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        return created.json().get("chatId").stringValue();
    }

    /**
     * Sends {@code text} to {@code chat} through this instance as the holder of {@code token}, and
     * returns the message stored; any answer but a 201 fails the test.
     */
    public JsonNode send(String token, String chat, String text) {
        ApiClient.Response sent = api().postJson("/api/chats/" + chat + "/messages", token, Map.of("message", text));
        assertThat(sent.status()).as(sent.toString()).isEqualTo(201);
        return sent.json();
    }

    /** The secret this deployment's tokens are signed with. */
    public String secret() {
        return deployment.secret();
    }

    /** The use cases behind this instance, for a test that fills its store faster than HTTP would. */
    Pigeonhole app() {
        return running().app();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        forTheClass = true;
        startIfItself();
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!forTheClass) {
            startIfItself();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!forTheClass) {
            end();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        end();
    }

    private void startIfItself() {
        if (startsItself) {
            start(variant.apply(deployment.config()));
        }
    }

    private void launch(ServerConfig serverConfig) {
        server = Server.start(config, serverConfig, deployment.clock);
        port = server.port();
        api = ApiClient.onPort(port);
    }

    private void end() {
        try {
            if (server != null) {
                stop();
            }
        } finally {
            config = null;
            api = null;
            deployment.instanceEnded();
        }
    }

    private Server running() {
        if (server == null) {
            throw new IllegalStateException("the server is not running: "
                    + (config == null ? "start it first" : "it was stopped"));
        }
        return server;
    }

    /** What the instances of one deployment share, for one test or one class. */
    private static final class Deployment {

        private final Supplier<AppConfig> store;
        private final Deque<AutoCloseable> afterwards = new ArrayDeque<>();
        /**
         * Every client of a test comes from loopback, and the load tests open hundreds of sockets
         * at once: one address's bound is the connection bounds test's to set, not every test's.
         */
        private ServerConfig serverConfig = ServerConfig.defaults().withPort(0).withDevLogin(true)
                .withMaxConnectionsPerAddress(10_000);
        private InstantSource clock = InstantSource.system();
        private UnaryOperator<AppConfig> consent =
                config -> config.withConsent(config.consent().withDefaultPolicy(AddPolicy.ANYONE));
        private int instances;
        private int ended;
        private AppConfig config;
        private String secret;

        Deployment(Supplier<AppConfig> store) {
            this.store = store;
        }

        /** The store's configuration, taken once for all the instances of this test (or class). */
        synchronized AppConfig config() {
            if (config == null) {
                config = store.get();
            }
            return config;
        }

        synchronized String secret() {
            if (secret == null) {
                byte[] bytes = new byte[48];
                new SecureRandom().nextBytes(bytes);
                secret = Base64.getEncoder().encodeToString(bytes);
            }
            return secret;
        }

        ServerConfig serverConfig() {
            return serverConfig.withJwtSecret(secret());
        }

        synchronized void closeAfterwards(AutoCloseable resource) {
            afterwards.push(resource);
        }

        /**
         * Once the last instance has ended, closes what outlived them, the last registered first,
         * and forgets this test's store and secret.
         */
        synchronized void instanceEnded() {
            if (++ended < instances) {
                return;
            }
            ended = 0;
            config = null;
            secret = null;
            RuntimeException failure = null;
            while (!afterwards.isEmpty()) {
                try {
                    afterwards.pop().close();
                } catch (Exception e) {
                    if (failure == null) {
                        failure = new IllegalStateException("could not close what the servers' store needed", e);
                    } else {
                        failure.addSuppressed(e);
                    }
                }
            }
            if (failure != null) {
                throw failure;
            }
        }
    }
}
