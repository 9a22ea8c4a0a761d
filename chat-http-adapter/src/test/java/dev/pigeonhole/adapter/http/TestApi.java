package dev.pigeonhole.adapter.http;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChatLock;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryConsents;
import dev.pigeonhole.adapter.inmemory.InMemoryMailboxes;
import dev.pigeonhole.adapter.inmemory.InMemoryPresenceRegistry;
import dev.pigeonhole.adapter.inmemory.InMemoryQuotas;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimits;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.chat.ChatService;
import dev.pigeonhole.domain.service.consent.ConsentService;
import dev.pigeonhole.domain.service.live.LiveService;
import dev.pigeonhole.domain.service.live.SubscriptionMultiplexer;
import dev.pigeonhole.domain.service.mailbox.MailboxService;
import dev.pigeonhole.domain.service.presence.PresenceService;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import static org.awaitility.Awaitility.await;

/**
 * The real HTTP server on a free loopback port, over the in-memory store (a real backend, not a
 * mock), with a clock the test moves and a store health the test can switch off.
 */
final class TestApi implements AutoCloseable {

    static final Duration PRESENCE_WINDOW = Duration.ofMinutes(15);
    /** Small, so a test can fill a live client's queue with a few hundred messages. */
    static final int LIVE_QUEUE_CAPACITY = 256;
    /** Short, so a test that switches the store's health off sees /health follow within moments. */
    static final Duration STORE_READINGS_EVERY = Duration.ofMillis(100);
    /** What the composition root would read from its build; no release has it, so it is unmistakable. */
    static final String VERSION = "0.0.0-test";

    final ChatHttpServer server;
    final SubscriptionMultiplexer multiplexer;
    final ApiClient client;
    final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-11-21T10:00:00Z"));
    final AtomicBoolean storeUp = new AtomicBoolean(true);
    final AtomicInteger healthChecks = new AtomicInteger();
    final CountingPresenceRegistry presenceRegistry = new CountingPresenceRegistry(new InMemoryPresenceRegistry());
    final Tokens tokens;
    final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    private TestApi(Limits limits, ConsentLimits consentLimits, HttpSettings settings, UnaryOperator<UseCases> decorate) {
        this(limits, consentLimits, settings, decorate,
                clock -> Tokens.withSecret("a test secret that is long enough for HS256!", Duration.ofHours(1), clock));
    }

    private TestApi(Limits limits, ConsentLimits consentLimits, HttpSettings settings, UnaryOperator<UseCases> decorate,
                    Function<InstantSource, Tokens> tokensOn) {
        InstantSource clock = now::get;
        InMemoryChannels channels = new InMemoryChannels();
        InMemoryChats store = new InMemoryChats(limits, channels);
        Acquaintances acquaintances = new Acquaintances(new InMemoryConsents(), store, channels, consentLimits);
        ChatService chats = new ChatService(store, channels, new InMemoryQuotas(clock), acquaintances, limits, clock);
        MailboxService mailboxes = new MailboxService(new InMemoryMailboxes(limits, channels), new InMemoryQuotas(clock),
                acquaintances, limits, clock);
        ConsentService consent = new ConsentService(acquaintances, clock);
        PresenceService presence = new PresenceService(presenceRegistry, store, channels,
                new InMemoryChatLock(clock), PRESENCE_WINDOW, clock);
        multiplexer = new SubscriptionMultiplexer(channels, LIVE_QUEUE_CAPACITY);
        UseCases useCases = decorate.apply(new UseCases(
                new ChatUseCases(chats, chats, chats, chats, chats, chats, chats, chats),
                new MailboxUseCases(mailboxes, mailboxes, mailboxes),
                new ConsentUseCases(consent, chats, consent, consent, consent),
                new PresenceUseCases(presence, presence),
                new LiveUseCases(new LiveService(multiplexer, store, clock))));
        tokens = tokensOn.apply(clock);
        StoreHealth health = () -> {
            healthChecks.incrementAndGet();
            return new StoreHealth.Status(storeUp.get(), "memory", storeUp.get() ? "answering" : "switched off");
        };
        server = new ChatHttpServer(useCases, settings, tokens, health, registry, multiplexer::upstreamSubscriptions,
                VERSION)
                .start("127.0.0.1", 0);
        client = new ApiClient(URI.create("http://127.0.0.1:" + server.port()));
    }

    /**
     * The default limits, but every write admitted: the tests of routes send faster than a
     * person, on a clock that stands still. The rate limit tests give their own.
     */
    static final Limits LIMITS = Limits.DEFAULTS.withRates(RateLimits.NONE);

    /**
     * The routes' tests add members as the book does, so a member they name is a member at once;
     * only the consent tests meet invitations, through {@link #withConsent}.
     */
    static final ConsentLimits BOOK_CONSENT = ConsentLimits.DEFAULTS.withDefaultPolicy(AddPolicy.ANYONE);

    static TestApi start() {
        return new TestApi(LIMITS, BOOK_CONSENT, settings(), UnaryOperator.identity());
    }

    static TestApi start(Limits limits, HttpSettings settings) {
        return new TestApi(limits, BOOK_CONSENT, settings, UnaryOperator.identity());
    }

    /** With some use cases wrapped, to hold a request at a known point. */
    static TestApi start(UnaryOperator<UseCases> decorate) {
        return new TestApi(LIMITS, BOOK_CONSENT, settings(), decorate);
    }

    /** With tokens checked as an identity provider's are, on the test's clock; dev login off, as it then is. */
    static TestApi withTokens(Function<InstantSource, Tokens> tokensOn) {
        return new TestApi(LIMITS, BOOK_CONSENT, HttpSettings.defaults(false).withStoreReadingsEvery(STORE_READINGS_EVERY),
                UnaryOperator.identity(), tokensOn);
    }

    /** As the server runs by default: a stranger's add is an invitation ({@link ConsentLimits#DEFAULTS}). */
    static TestApi withConsent() {
        return withConsent(LIMITS, ConsentLimits.DEFAULTS);
    }

    static TestApi withConsent(Limits limits, ConsentLimits consent) {
        return new TestApi(limits, consent, settings(), UnaryOperator.identity());
    }

    /** Dev login on, the store read often. */
    static HttpSettings settings() {
        return HttpSettings.defaults(true).withStoreReadingsEvery(STORE_READINGS_EVERY);
    }

    /** Switches the store's health, and waits until /health, which reads it in the background, says so. */
    void switchStore(boolean up) {
        storeUp.set(up);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> client.get("/health", null).status() == (up ? 200 : 503));
    }

    void advance(Duration by) {
        now.updateAndGet(at -> at.plus(by));
    }

    @Override
    public void close() {
        client.close();
        server.close();
        multiplexer.close();
    }
}
