package dev.pigeonhole.domain.service.presence;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChatLock;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryPresenceRegistry;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent.PresenceChanged;
import dev.pigeonhole.domain.port.in.presence.ListOnlineUsers;
import dev.pigeonhole.domain.port.out.Lease;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import dev.pigeonhole.domain.service.Heard;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Who's online" on the in-memory store: the window decides every transition, each transition is
 * announced once, and a user sees only the people it shares a chat with.
 */
class PresenceServiceTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final Duration WINDOW = Duration.ofMinutes(15);

    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryChatLock lock = new InMemoryChatLock(clock);
    private final Heard presence = new Heard(channels, Channel.PRESENCE);
    private final InMemoryChats chats = new InMemoryChats(Limits.DEFAULTS, channels);
    private final InMemoryPresenceRegistry registry = new InMemoryPresenceRegistry();
    private final PresenceService service = new PresenceService(registry, chats, channels, lock, WINDOW, clock);

    @BeforeEach
    void aliceAndBobShareAChat() {
        chats.open(ChatId.of("lunch"), ALICE, Set.of(ALICE, BOB), "hi", clock.instant());
    }

    @AfterEach
    void stopListening() {
        presence.close();
    }

    @Test
    void coming_online_is_announced_once_however_often_a_user_is_seen_within_the_window()
            throws InterruptedException {
        service.touch(ALICE);
        clock.advance(WINDOW.minusSeconds(1));
        service.touch(ALICE);

        assertThat(presence.all()).containsExactly(new PresenceChanged(ALICE, true, TestClock.START));
        assertThat(service.online(BOB)).containsExactly(ALICE);
    }

    @Test
    void a_user_seen_again_after_the_window_comes_online_again() throws InterruptedException {
        service.touch(ALICE);
        clock.advance(WINDOW.plus(PresenceService.TOUCH_INTERVAL).plusMillis(1));
        service.touch(ALICE);

        assertThat(presence.all()).hasSize(2).allMatch(event -> ((PresenceChanged) event).online());
    }

    @Test
    void online_looks_back_over_the_configured_window_or_the_one_asked_for() {
        service.touch(ALICE);
        clock.advance(Duration.ofMinutes(10));
        service.touch(BOB);

        assertThat(service.online(ALICE)).containsExactlyInAnyOrder(ALICE, BOB);
        assertThat(service.online(ALICE, new ListOnlineUsers.Query(Duration.ofMinutes(5)))).containsExactly(BOB);
    }

    @Test
    void a_user_sees_itself_and_its_co_members_online_and_no_stranger() {
        UserId carol = UserId.of("carol");
        UserId dave = UserId.of("dave");
        chats.open(ChatId.of("elsewhere"), carol, Set.of(carol, dave), "hi", clock.instant());
        service.touch(ALICE);
        service.touch(BOB);
        service.touch(carol);
        service.touch(dave);

        assertThat(service.online(ALICE)).containsExactlyInAnyOrder(ALICE, BOB);
        assertThat(service.online(carol)).containsExactlyInAnyOrder(carol, dave);
        assertThat(service.online(UserId.of("loner"))).as("not online itself, and sharing no chat").isEmpty();
        assertThat(service.onlineCount()).as("operators count everyone, naming no one").isEqualTo(4);
    }

    @Test
    void pruning_forgets_who_left_the_window_and_announces_each_going_offline() throws InterruptedException {
        service.touch(ALICE);
        clock.advance(Duration.ofMinutes(10));
        service.touch(BOB);
        clock.advance(Duration.ofMinutes(6));
        presence.all();

        assertThat(service.pruneStale()).isEqualTo(1);

        assertThat(presence.all()).containsExactly(new PresenceChanged(ALICE, false, clock.instant()));
        assertThat(service.online(BOB)).containsExactly(BOB);
    }

    @Test
    void only_one_instance_prunes_at_a_time() {
        service.touch(ALICE);
        clock.advance(WINDOW.plusMinutes(1));
        Optional<Lease> elsewhere = lock.tryAcquire(PresenceService.PRUNE_LOCK, Duration.ofMinutes(1));

        assertThat(elsewhere).isPresent();
        assertThat(service.pruneStale()).isZero();
        elsewhere.get().close();
        assertThat(service.pruneStale()).isEqualTo(1);
    }

    @Test
    void a_sighting_within_the_interval_of_the_last_recorded_one_does_not_reach_the_registry() {
        service.touch(ALICE);
        clock.advance(PresenceService.TOUCH_INTERVAL.minusMillis(1));
        service.touch(ALICE);

        assertThat(registry.seenSince(TestClock.START.plusMillis(1))).as("still the first sighting").isEmpty();

        clock.advance(Duration.ofMillis(1));
        service.touch(ALICE);

        assertThat(registry.seenSince(clock.instant())).containsExactly(ALICE);
    }

    @Test
    void a_user_whose_last_sighting_was_not_recorded_stays_online_for_the_whole_window_after_it() {
        service.touch(ALICE);
        clock.advance(Duration.ofMillis(900));
        service.touch(ALICE);
        clock.advance(WINDOW.minusMillis(1));

        assertThat(service.online(BOB)).as("seen 900 ms later than recorded, and within the window of that")
                .containsExactly(ALICE);
        assertThat(service.onlineCount()).isEqualTo(1);
        assertThat(service.pruneStale()).isZero();

        clock.advance(PresenceService.TOUCH_INTERVAL);
        assertThat(service.online(BOB)).isEmpty();
        assertThat(service.pruneStale()).isEqualTo(1);
    }

    @Test
    void coming_online_is_still_announced_once_when_the_sightings_in_between_were_not_recorded()
            throws InterruptedException {
        for (int i = 0; i < 5; i++) {
            service.touch(ALICE);
            clock.advance(Duration.ofMillis(300));
        }

        assertThat(presence.all()).containsExactly(new PresenceChanged(ALICE, true, TestClock.START));
        assertThat(registry.seenSince(TestClock.START.plusMillis(1))).as("recorded at 0 and 1200 ms")
                .containsExactly(ALICE);
    }

    @Test
    void what_is_remembered_of_recorded_sightings_is_bounded_and_forgotten_after_the_interval() {
        int beyond = PresenceService.MAX_REMEMBERED + 10;
        for (int i = 0; i < beyond; i++) {
            service.touch(UserId.of("user-" + i));
        }
        assertThat(service.remembered()).isEqualTo(PresenceService.MAX_REMEMBERED);

        clock.advance(Duration.ofMillis(10));
        UserId remembered = UserId.of("user-0");
        UserId notRemembered = UserId.of("user-" + (beyond - 1));
        service.touch(remembered);
        service.touch(notRemembered);
        assertThat(registry.seenSince(clock.instant())).as("past the bound a sighting is recorded as without throttle")
                .containsExactly(notRemembered);

        clock.advance(PresenceService.TOUCH_INTERVAL);
        service.touch(ALICE);
        assertThat(service.remembered()).as("only the sighting just recorded").isEqualTo(1);
    }

    @Test
    void sightings_in_the_same_millisecond_reach_the_registry_once() {
        int[] touches = {0};
        PresenceRegistry counting = new PresenceRegistry() {
            @Override
            public Optional<Instant> touch(UserId user, Instant at) {
                touches[0]++;
                return registry.touch(user, at);
            }

            @Override
            public Set<UserId> seenSince(Instant since) {
                return registry.seenSince(since);
            }

            @Override
            public long countSince(Instant since) {
                return registry.countSince(since);
            }

            @Override
            public Set<UserId> seenSince(Instant since, Set<UserId> among) {
                return registry.seenSince(since, among);
            }

            @Override
            public List<UserId> prune(Instant before) {
                return registry.prune(before);
            }
        };
        PresenceService counted = new PresenceService(counting, chats, channels, lock, WINDOW, clock);

        counted.touch(ALICE);
        counted.touch(ALICE);
        clock.advance(Duration.ofMillis(500));
        counted.touch(ALICE);
        clock.advance(Duration.ofMillis(200));
        counted.touch(ALICE);
        assertThat(touches[0]).as("the time of the one recorded is what the others are measured against")
                .isEqualTo(1);

        clock.advance(Duration.ofMillis(300));
        counted.touch(ALICE);
        assertThat(touches[0]).as("an interval after the recorded one").isEqualTo(2);
    }

    @Test
    void the_sweep_runs_an_interval_after_the_last_and_forgets_exactly_what_is_an_interval_old() {
        service.touch(ALICE);
        clock.advance(Duration.ofMillis(500));
        service.touch(BOB);
        assertThat(service.remembered()).isEqualTo(2);

        clock.advance(Duration.ofMillis(500));
        service.touch(UserId.of("carol"));

        assertThat(service.remembered()).as("alice's is an interval old, bob's half of one").isEqualTo(2);
        clock.advance(Duration.ofMillis(999));
        service.touch(UserId.of("dave"));
        assertThat(service.remembered()).as("no sweep before an interval has passed").isEqualTo(3);
    }
}
