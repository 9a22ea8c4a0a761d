package dev.pigeonhole.domain.service;

import dev.pigeonhole.adapter.inmemory.InMemoryChannels;
import dev.pigeonhole.adapter.inmemory.InMemoryChats;
import dev.pigeonhole.adapter.inmemory.InMemoryConsents;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.port.out.Consents;
import dev.pigeonhole.testsupport.TestClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The consent helper the chat, mailbox and consent services share, on its own: how a change that
 * loses its race is run again, and the answers no use case reaches on its way to the store.
 */
class AcquaintancesTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final UserId MALLORY = UserId.of("mallory");

    private final TestClock clock = new TestClock();
    private final InMemoryChannels channels = new InMemoryChannels();
    private final InMemoryConsents consents = new InMemoryConsents();
    private final InMemoryChats chats = new InMemoryChats(Limits.DEFAULTS, channels);
    private final Acquaintances acquaintances = new Acquaintances(consents, chats, channels, ConsentLimits.DEFAULTS);
    private final Heard toBob = new Heard(channels, Channel.ofUser(BOB));

    @AfterEach
    void stopListening() {
        toBob.close();
    }

    @Test
    void a_change_that_loses_its_race_runs_again_on_what_the_winner_left_up_to_sixteen_times() {
        AtomicInteger runs = new AtomicInteger();

        AddPolicy kept = acquaintances.change(BOB, consent -> {
            if (runs.incrementAndGet() < 16) {
                writeMeanwhile(BOB);
            }
            consent.choose(AddPolicy.ANYONE);
            return consent.policy();
        });

        assertThat(runs).as("fifteen lost races, then one won").hasValue(16);
        assertThat(kept).isEqualTo(AddPolicy.ANYONE);
        assertThat(acquaintances.consentOf(BOB).policy()).isEqualTo(AddPolicy.ANYONE);
    }

    @Test
    void a_change_that_loses_sixteen_races_gives_up_and_keeps_nothing() {
        AtomicInteger runs = new AtomicInteger();

        assertThatExceptionOfType(StoreUnavailableException.class).isThrownBy(() ->
                acquaintances.change(BOB, consent -> {
                    runs.incrementAndGet();
                    writeMeanwhile(BOB);
                    consent.choose(AddPolicy.ANYONE);
                    return null;
                })).withMessageContaining("changed 16 times");

        assertThat(runs).hasValue(16);
        assertThat(acquaintances.consentOf(BOB).policy()).isEqualTo(ConsentLimits.DEFAULTS.defaultPolicy());
    }

    @Test
    void everyone_may_add_itself_and_shares_a_chat_with_itself_though_it_is_in_none() {
        assertThat(chats.chatIdsOf(ALICE)).isEmpty();

        assertThat(acquaintances.mayAdd(ALICE, ALICE)).isTrue();
        assertThat(acquaintances.shareAChat(ALICE, ALICE)).isTrue();
        assertThat(acquaintances.shareAChat(ALICE, BOB)).isFalse();
    }

    @Test
    void an_invitation_from_someone_blocked_is_dropped_without_a_word_to_the_invitee() throws InterruptedException {
        acquaintances.change(BOB, consent -> {
            consent.block(MALLORY);
            return null;
        });

        acquaintances.invite(BOB, invitation(ChatId.of("trap"), MALLORY), clock.instant());
        acquaintances.invite(BOB, invitation(ChatId.of("lunch"), ALICE), clock.instant());

        assertThat(toBob.all()).singleElement().isInstanceOfSatisfying(LiveEvent.Invited.class,
                invited -> assertThat(invited.invitation().inviter()).isEqualTo(ALICE));
        assertThat(acquaintances.consentOf(BOB).pending(clock.instant())).extracting(Invitation::inviter)
                .containsExactly(ALICE);
    }

    /** Another writer's change of the user's consent, kept between a change's read and its write. */
    private void writeMeanwhile(UserId user) {
        Consents.Kept now = consents.read(user);
        assertThat(consents.replace(user, now.version(), now.consent())).isTrue();
    }

    private Invitation invitation(ChatId chat, UserId inviter) {
        return new Invitation(chat, inviter, 0, 1, clock.instant());
    }
}
