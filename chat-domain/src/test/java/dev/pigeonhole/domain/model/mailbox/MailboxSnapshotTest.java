package dev.pigeonhole.domain.model.mailbox;

import dev.pigeonhole.domain.model.UserId;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/** What a stored mailbox may say of itself, at the edges: a store handing back anything else has a bug. */
class MailboxSnapshotTest {

    private static final UserId OWNER = UserId.of("owner");

    @Test
    void it_acknowledges_anything_from_nothing_to_all_it_handed_out() {
        assertThat(new MailboxSnapshot(OWNER, 0, 0, List.of()).acknowledged()).isZero();
        assertThat(new MailboxSnapshot(OWNER, 5, 5, List.of()).acknowledged()).isEqualTo(5);
        assertThatIllegalArgumentException().isThrownBy(() -> new MailboxSnapshot(OWNER, 5, 6, List.of()));
        assertThatIllegalArgumentException().isThrownBy(() -> new MailboxSnapshot(OWNER, 5, -1, List.of()));
    }

    @Test
    void a_strangers_message_is_one_it_still_holds() {
        assertThat(new MailboxSnapshot(OWNER, 5, 2, List.of(3L, 5L)).fromStrangers()).containsExactly(3L, 5L);
        assertThatIllegalArgumentException().isThrownBy(() -> new MailboxSnapshot(OWNER, 5, 2, List.of(2L)))
                .withMessage("a stranger's message is one the mailbox holds, 3..5, not 2");
        assertThatIllegalArgumentException().isThrownBy(() -> new MailboxSnapshot(OWNER, 5, 2, List.of(6L)));
    }
}
