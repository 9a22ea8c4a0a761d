package dev.pigeonhole.domain.service;

import dev.pigeonhole.adapter.inmemory.InMemoryMailboxes;
import dev.pigeonhole.domain.model.DirectMessage;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.Limits;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.port.in.DeliverDirectMessage;
import dev.pigeonhole.domain.port.in.TakeDirectMessages;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/** Single-recipient messaging on the in-memory store: the clock's time, and the configured body limit. */
class MailboxServiceTest {

    private static final UserId ALICE = UserId.of("alice");
    private static final UserId BOB = UserId.of("bob");
    private static final Limits LIMITS = Limits.DEFAULTS.withMaxBodyLength(5);

    private final TestClock clock = new TestClock();
    private final MailboxService service = new MailboxService(new InMemoryMailboxes(LIMITS), LIMITS, clock);

    @Test
    void a_delivered_message_is_taken_by_its_owner_with_the_time_it_was_delivered() {
        int depth = service.deliver(new DeliverDirectMessage.Command(ALICE, BOB, "psst"));

        assertThat(depth).isEqualTo(1);
        assertThat(service.take(new TakeDirectMessages.Command(BOB, 10)))
                .containsExactly(new DirectMessage(TestClock.START, ALICE, "psst"));
        assertThat(service.take(new TakeDirectMessages.Command(BOB, 10))).isEmpty();
    }

    @Test
    void a_body_over_the_configured_limit_is_refused_and_nothing_is_delivered() {
        assertThatExceptionOfType(InvalidInputException.class)
                .isThrownBy(() -> service.deliver(new DeliverDirectMessage.Command(ALICE, BOB, "too long")));

        assertThat(service.take(new TakeDirectMessages.Command(BOB, 10))).isEmpty();
    }
}
