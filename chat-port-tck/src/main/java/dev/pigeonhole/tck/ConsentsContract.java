package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentSnapshot;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.Consents;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every {@link Consents} promises: a user's consent kept whole, as it was handed in, and
 * replaced only over the version it was read at, so concurrent changes never lose one another.
 */
@Timeout(60)
public abstract class ConsentsContract {

    private static final Instant AT = Instant.parse("2026-11-27T10:00:00.123Z");

    private final OpenStores stores = new OpenStores();
    private Consents consents;

    /** A fresh store, isolated from every other one alive at the same time. */
    protected abstract StoreFixture newStore(Limits limits);

    @BeforeEach
    void openStore() {
        consents = stores.track(newStore(Limits.DEFAULTS)).consents();
    }

    @AfterEach
    void closeStores() {
        stores.closeAll();
    }

    @Test
    void a_user_nothing_was_kept_for_has_an_empty_consent_at_version_0() {
        UserId user = randomUser();

        assertThat(consents.read(user)).isEqualTo(new Consents.Kept(ConsentSnapshot.empty(user), 0));
    }

    @Test
    void a_consent_is_read_back_as_it_was_kept() {
        UserId user = randomUser();
        ConsentSnapshot kept = new ConsentSnapshot(user, Optional.of(AddPolicy.ANYONE),
                List.of(UserId.of("blocked-a-" + user), UserId.of("blocked-b-" + user)),
                List.of(new Invitation(ChatId.of("chat-1-" + user), UserId.of("inviter-" + user), 0, 3, AT),
                        new Invitation(ChatId.of("chat-2-" + user), UserId.of("other-" + user), 41, 1_000,
                                AT.plusMillis(1))));

        assertThat(consents.replace(user, 0, kept)).isTrue();

        assertThat(consents.read(user)).isEqualTo(new Consents.Kept(kept, 1));
        assertThat(consents.read(randomUser()).version()).as("another user's").isZero();
    }

    @Test
    void a_replace_over_a_version_that_moved_on_changes_nothing() {
        UserId user = randomUser();
        ConsentSnapshot first = withPolicy(user, AddPolicy.ANYONE);
        consents.replace(user, 0, first);

        assertThat(consents.replace(user, 0, withPolicy(user, AddPolicy.CO_MEMBERS))).isFalse();
        assertThat(consents.replace(user, 7, withPolicy(user, AddPolicy.CO_MEMBERS))).isFalse();

        assertThat(consents.read(user)).isEqualTo(new Consents.Kept(first, 1));
        assertThat(consents.replace(user, 1, withPolicy(user, AddPolicy.CO_MEMBERS))).isTrue();
        assertThat(consents.read(user).version()).isEqualTo(2);
    }

    @Test
    void concurrent_read_change_replace_rounds_lose_no_change() throws Exception {
        UserId user = randomUser();
        int writers = 8;
        CyclicBarrier together = new CyclicBarrier(writers);
        List<Future<?>> running = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(writers)) {
            for (int i = 0; i < writers; i++) {
                UserId blocked = UserId.of("blocked-" + i + "-" + user);
                running.add(pool.submit(() -> {
                    together.await(30, TimeUnit.SECONDS);
                    while (true) {
                        Consents.Kept kept = consents.read(user);
                        List<UserId> more = new ArrayList<>(kept.consent().blocked());
                        more.add(blocked);
                        ConsentSnapshot next = new ConsentSnapshot(user, kept.consent().chosen(), more.stream().sorted()
                                .toList(), kept.consent().invitations());
                        if (consents.replace(user, kept.version(), next)) {
                            return null;
                        }
                    }
                }));
            }
            for (Future<?> writer : running) {
                writer.get(30, TimeUnit.SECONDS);
            }
        }

        Consents.Kept last = consents.read(user);
        assertThat(last.consent().blocked()).hasSize(writers);
        assertThat(last.version()).isEqualTo(writers);
    }

    private static ConsentSnapshot withPolicy(UserId user, AddPolicy policy) {
        return new ConsentSnapshot(user, Optional.of(policy), List.of(), List.of());
    }

    private static UserId randomUser() {
        return UserId.of("consent-" + UUID.randomUUID());
    }
}
