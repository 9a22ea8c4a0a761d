package dev.pigeonhole.domain.service;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChatLock;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryPresenceRegistry;
import dev.pigeonhole.domain.model.Channel;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.model.LiveEvent.PresenceChanged;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.ListOnlineUsers;
import dev.pigeonhole.domain.port.out.Lease;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
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
    private final PresenceService service =
            new PresenceService(new InMemoryPresenceRegistry(), chats, channels, lock, WINDOW, clock);

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
        clock.advance(WINDOW.plusSeconds(1));
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
}
