package dev.pigeonhole.app;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChatLock;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryConsents;
import dev.pigeonhole.adapter.inmemory.InMemoryMailboxes;
import dev.pigeonhole.adapter.inmemory.InMemoryPresenceRegistry;
import dev.pigeonhole.adapter.inmemory.InMemoryQuotas;
import dev.pigeonhole.adapter.postgres.PostgresChannels;
import dev.pigeonhole.adapter.postgres.PostgresChatLock;
import dev.pigeonhole.adapter.postgres.PostgresChats;
import dev.pigeonhole.adapter.postgres.PostgresConsents;
import dev.pigeonhole.adapter.postgres.PostgresMailboxes;
import dev.pigeonhole.adapter.postgres.PostgresPresenceRegistry;
import dev.pigeonhole.adapter.postgres.PostgresQuotas;
import dev.pigeonhole.adapter.postgres.PostgresStore;
import dev.pigeonhole.adapter.redis.Durability;
import dev.pigeonhole.adapter.redis.Functions;
import dev.pigeonhole.adapter.redis.KeyLayout;
import dev.pigeonhole.adapter.redis.PublishMode;
import dev.pigeonhole.adapter.redis.RedisChannels;
import dev.pigeonhole.adapter.redis.RedisChatLock;
import dev.pigeonhole.adapter.redis.RedisChats;
import dev.pigeonhole.adapter.redis.RedisConsents;
import dev.pigeonhole.adapter.redis.RedisDriver;
import dev.pigeonhole.adapter.redis.RedisFailures;
import dev.pigeonhole.adapter.redis.RedisIndexSweep;
import dev.pigeonhole.adapter.redis.RedisMailboxes;
import dev.pigeonhole.adapter.redis.RedisPresenceRegistry;
import dev.pigeonhole.adapter.redis.RedisQuotas;
import dev.pigeonhole.adapter.redis.glide.GlideDriver;
import dev.pigeonhole.adapter.redis.jedis.JedisDriver;
import dev.pigeonhole.adapter.redis.lettuce.LettuceDriver;
import dev.pigeonhole.adapter.redis.redisson.RedissonDriver;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.port.in.chat.AcknowledgeMessages;
import dev.pigeonhole.domain.port.in.chat.CreateChat;
import dev.pigeonhole.domain.port.in.chat.FetchPending;
import dev.pigeonhole.domain.port.in.chat.JoinChat;
import dev.pigeonhole.domain.port.in.chat.LeaveChat;
import dev.pigeonhole.domain.port.in.chat.ListChats;
import dev.pigeonhole.domain.port.in.chat.ReadMessages;
import dev.pigeonhole.domain.port.in.chat.SendMessage;
import dev.pigeonhole.domain.port.in.consent.AcceptInvitation;
import dev.pigeonhole.domain.port.in.consent.BlockUsers;
import dev.pigeonhole.domain.port.in.consent.ChooseAddPolicy;
import dev.pigeonhole.domain.port.in.consent.DeclineInvitation;
import dev.pigeonhole.domain.port.in.consent.ListInvitations;
import dev.pigeonhole.domain.port.in.live.SubscribeToLiveEvents;
import dev.pigeonhole.domain.port.in.mailbox.AcknowledgeDirectMessages;
import dev.pigeonhole.domain.port.in.mailbox.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.mailbox.ReadDirectMessages;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import dev.pigeonhole.domain.port.in.presence.PrunePresence;
import dev.pigeonhole.domain.port.in.presence.TouchPresence;
import dev.pigeonhole.domain.service.Acquaintances;
import dev.pigeonhole.domain.service.chat.ChatService;
import dev.pigeonhole.domain.service.consent.ConsentService;
import dev.pigeonhole.domain.service.live.LiveCatchUps;
import dev.pigeonhole.domain.service.live.LiveService;
import dev.pigeonhole.domain.service.live.SubscriptionMultiplexer;
import dev.pigeonhole.domain.service.mailbox.MailboxService;
import dev.pigeonhole.domain.service.presence.PresenceService;

import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.time.Duration;
import java.time.InstantSource;
import java.util.Optional;

/**
 * The composition root: picks the backend, builds its adapters and the services with plain
 * constructors, and hands out the use cases. No container and no scanning, so this file is the
 * whole answer to "what talks to what".
 *
 * <p>Traced ({@link #startTraced}), each use case it hands out and each driven port under them is
 * wrapped in {@link Traced}; untraced, nothing is, and a call costs what it always did.
 */
public final class Pigeonhole implements AutoCloseable {

    private static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system.name");

    private final DrivenPorts ports;
    private final Optional<Tracer> tracer;
    private final InstantSource clock;
    private final Duration presenceWindow;
    private final SubscriptionMultiplexer multiplexer;
    private final ChatService chats;
    private final MailboxService mailboxes;
    private final ConsentService consent;
    private final PresenceService presence;
    private final LiveService live;

    private Pigeonhole(DrivenPorts ports, AppConfig config, InstantSource clock, Optional<Tracer> tracer) {
        this.ports = ports;
        this.tracer = tracer;
        this.clock = clock;
        this.presenceWindow = config.presenceWindow();
        this.multiplexer = new SubscriptionMultiplexer(ports.channels(), config.liveQueueCapacity());
        Acquaintances acquaintances = new Acquaintances(ports.consents(), ports.chats(), ports.channels(),
                config.consent());
        this.chats = new ChatService(ports.chats(), ports.channels(), ports.quotas(), acquaintances, config.limits(),
                clock);
        this.mailboxes = new MailboxService(ports.mailboxes(), ports.quotas(), acquaintances, config.limits(), clock);
        this.consent = new ConsentService(acquaintances, clock);
        this.presence = new PresenceService(ports.presence(), ports.chats(), ports.channels(), ports.lock(),
                config.presenceWindow(), clock);
        this.live = new LiveService(multiplexer, ports.chats(), clock,
                new LiveCatchUps(config.liveCatchUps(), LiveCatchUps.DEFAULT_WAIT, config.limits().pending()));
    }

    /** Without metrics: the store's clients record into a registry that keeps nothing. */
    public static Pigeonhole start(AppConfig config, InstantSource clock) {
        return start(config, clock, new CompositeMeterRegistry());
    }

    /**
     * @param metrics where the store's client libraries record what they offer (HikariCP's pool,
     *                Lettuce's command latencies); the composition root owns it
     */
    public static Pigeonhole start(AppConfig config, InstantSource clock, MeterRegistry metrics) {
        return new Pigeonhole(open(config, clock, metrics), config, clock, Optional.empty());
    }

    /**
     * Like {@link #start}, with a span of {@code telemetry}'s around every call of a use case and of
     * a driven port made inside a trace (the HTTP adapter starts one per request).
     */
    public static Pigeonhole startTraced(AppConfig config, InstantSource clock, MeterRegistry metrics,
                                         OpenTelemetry telemetry) {
        Tracer tracer = telemetry.getTracer(Telemetry.SCOPE);
        Attributes store = Attributes.of(DB_SYSTEM, switch (config.store()) {
            case MEMORY -> "memory";
            case REDIS -> "redis";
            case POSTGRES -> "postgresql";
        });
        return new Pigeonhole(open(config, clock, metrics).traced(tracer, store), config, clock, Optional.of(tracer));
    }

    private static DrivenPorts open(AppConfig config, InstantSource clock, MeterRegistry metrics) {
        return switch (config.store()) {
            case MEMORY -> inMemory(config, clock);
            case REDIS -> redis(config, clock, metrics);
            case POSTGRES -> postgres(config, metrics);
        };
    }

    /** {@code service} as the use case {@code type}, itself when this instance is untraced. */
    private <T> T useCase(Class<T> type, T service) {
        if (tracer.isEmpty()) {
            return service;
        }
        return Traced.wrap(type, service, tracer.get(), SpanKind.INTERNAL, Attributes.empty());
    }

    private static DrivenPorts inMemory(AppConfig config, InstantSource clock) {
        InMemoryChannels channels = new InMemoryChannels();
        return new DrivenPorts(
                new InMemoryChats(config.limits(), channels),
                new InMemoryMailboxes(config.limits(), channels),
                new InMemoryPresenceRegistry(),
                new InMemoryChatLock(clock),
                channels,
                new InMemoryQuotas(clock),
                new InMemoryConsents(),
                () -> true,
                DrivenPorts.IndexSweep.NOTHING_TO_MEND,
                () -> { });
    }

    private static DrivenPorts redis(AppConfig config, InstantSource clock, MeterRegistry metrics) {
        RedisConfig redis = config.redis();
        RedisDriver driver = switch (redis.client()) {
            case JEDIS -> new JedisDriver(redis.settings());
            // The only one of the four that records command latencies into Micrometer (chat-redis-adapter's README).
            case LETTUCE -> new LettuceDriver(redis.settings(), metrics);
            case REDISSON -> new RedissonDriver(redis.settings());
            case GLIDE -> new GlideDriver(redis.settings());
        };
        KeyLayout keys = switch (redis.layout()) {
            case TAGGED -> KeyLayout.tagged(redis.keyPrefix());
            case BOOK -> KeyLayout.book(redis.keyPrefix());
        };
        if (!driver.ping()) {
            StoreUnavailableException why = whyNoAnswer(driver, redis);
            driver.close();
            throw why;
        }
        Durability durability = redis.durability();
        try {
            Functions.install(driver);
            DurabilityCheck.report(driver, durability);
        } catch (RuntimeException e) {
            driver.close();
            throw e;
        }
        PublishMode publishing = PublishMode.of(driver, redis.patternsOnCluster());
        RedisChatLock lock = new RedisChatLock(driver, keys, clock);
        RedisIndexSweep sweep = new RedisIndexSweep(driver, keys, lock);
        return new DrivenPorts(
                new RedisChats(driver, keys, config.limits(), publishing, durability),
                new RedisMailboxes(driver, keys, config.limits(), publishing, durability),
                new RedisPresenceRegistry(driver, keys),
                lock,
                new RedisChannels(driver, keys, publishing),
                new RedisQuotas(driver, keys),
                new RedisConsents(driver, keys, durability),
                driver::ping,
                users -> sweep.sweep(users).map(repair -> repair.relisted() + repair.dropped()).orElse(0),
                driver);
    }

    /**
     * Why PING went unanswered. PING says only yes or no; a Redis that answers but refuses this
     * server (a wrong password, no password, a missing permission) says which to the library
     * check, and that reason is the one an operator needs. Anything else is the plain timeout.
     */
    private static StoreUnavailableException whyNoAnswer(RedisDriver driver, RedisConfig redis) {
        try {
            Functions.install(driver);
        } catch (StoreUnavailableException e) {
            if (RedisFailures.isMisconfiguration(e)) {
                return e;
            }
        } catch (RuntimeException e) {
            // no better reason than the one below
        }
        return new StoreUnavailableException("Redis did not answer at " + redis.endpoint() + " within "
                + redis.connectTimeout().toMillis() + " ms", null);
    }

    /**
     * PostgreSQL: one pool and one listening connection for every port, the schema migrated when
     * the store opens. The database's own clock rules leases and quotas; chats are the domain's
     * aggregate applied in a transaction, so nothing here differs from memory but where it lives.
     */
    private static DrivenPorts postgres(AppConfig config, MeterRegistry metrics) {
        PostgresStore store = new PostgresStore(config.postgres().orElseThrow(), metrics);
        return new DrivenPorts(
                new PostgresChats(store, config.limits()),
                new PostgresMailboxes(store, config.limits()),
                new PostgresPresenceRegistry(store),
                new PostgresChatLock(store),
                new PostgresChannels(store),
                new PostgresQuotas(store),
                new PostgresConsents(store),
                () -> answers(store),
                DrivenPorts.IndexSweep.NOTHING_TO_MEND,
                store);
    }

    private static boolean answers(PostgresStore store) {
        try {
            store.ping();
            return true;
        } catch (StoreUnavailableException e) {
            return false;
        }
    }

    public CreateChat createChat() {
        return useCase(CreateChat.class, chats);
    }

    public SendMessage sendMessage() {
        return useCase(SendMessage.class, chats);
    }

    public FetchPending fetchPending() {
        return useCase(FetchPending.class, chats);
    }

    public AcknowledgeMessages acknowledgeMessages() {
        return useCase(AcknowledgeMessages.class, chats);
    }

    public ReadMessages readMessages() {
        return useCase(ReadMessages.class, chats);
    }

    public JoinChat joinChat() {
        return useCase(JoinChat.class, chats);
    }

    public LeaveChat leaveChat() {
        return useCase(LeaveChat.class, chats);
    }

    public ListChats listChats() {
        return useCase(ListChats.class, chats);
    }

    public ListInvitations listInvitations() {
        return useCase(ListInvitations.class, consent);
    }

    public AcceptInvitation acceptInvitation() {
        return useCase(AcceptInvitation.class, chats);
    }

    public DeclineInvitation declineInvitation() {
        return useCase(DeclineInvitation.class, consent);
    }

    public BlockUsers blockUsers() {
        return useCase(BlockUsers.class, consent);
    }

    public ChooseAddPolicy chooseAddPolicy() {
        return useCase(ChooseAddPolicy.class, consent);
    }

    public DeliverDirectMessage deliverDirectMessage() {
        return useCase(DeliverDirectMessage.class, mailboxes);
    }

    public ReadDirectMessages readDirectMessages() {
        return useCase(ReadDirectMessages.class, mailboxes);
    }

    public AcknowledgeDirectMessages acknowledgeDirectMessages() {
        return useCase(AcknowledgeDirectMessages.class, mailboxes);
    }

    public TouchPresence touchPresence() {
        return useCase(TouchPresence.class, presence);
    }

    public ListOnlineUsers listOnlineUsers() {
        return useCase(ListOnlineUsers.class, presence);
    }

    public PrunePresence prunePresence() {
        return useCase(PrunePresence.class, presence);
    }

    public SubscribeToLiveEvents subscribeToLiveEvents() {
        return useCase(SubscribeToLiveEvents.class, live);
    }

    /** Whether the store answers now; always for memory, a PING for Redis. */
    public boolean storeAnswers() {
        return ports.answers().getAsBoolean();
    }

    /**
     * Mends the store's indexes of users' chats around the users online now (Redis keeps them apart
     * from the chats, so a crash between the two steps of a join or a leave can leave one wrong); on
     * one instance at a time. Answers how many index entries it changed.
     */
    public int repairChatIndexes() {
        return ports.indexes().sweep(ports.presence().seenSince(clock.instant().minus(presenceWindow)));
    }

    /** Upstream pub/sub subscriptions held by this process, for metrics and tests. */
    public int upstreamSubscriptions() {
        return multiplexer.upstreamSubscriptions();
    }

    @Override
    public void close() throws Exception {
        try {
            multiplexer.close();
        } finally {
            ports.resources().close();
        }
    }
}
