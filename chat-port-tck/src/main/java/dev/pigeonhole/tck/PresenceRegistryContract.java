package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.port.out.PresenceRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static java.time.temporal.ChronoUnit.MINUTES;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What every {@link PresenceRegistry} promises (docs/DESIGN.md §3, "who's online"): a sorted set of
 * user and last-seen time that never moves backwards, read by "seen since" and trimmed by
 * "prune before".
 *
 * <p>The port takes every time explicitly, so these tests use fixed instants, whole
 * milliseconds, which every store keeps exactly. A shared store's presence set may hold other
 * tests' users, so each test asserts on its own random users only. The prune tests live in the
 * year 2000, before any sighting the other tests make, so their prunes never remove those. (Two
 * prune tests at once on one presence set could still disturb each other, which is one reason a
 * fixture must be isolated rather than share the set.)
 */
@Timeout(60)
public abstract class PresenceRegistryContract {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final Instant LONG_AGO = Instant.parse("2000-01-01T00:00:00Z");

    private final OpenStores stores = new OpenStores();
    private PresenceRegistry presence;

    /** A fresh store, isolated from every other one alive at the same time. */
    protected abstract StoreFixture newStore(Limits limits);

    @BeforeEach
    void openStore() {
        StoreFixture store = newStore(Limits.DEFAULTS);
        stores.track(store);
        presence = store.presence();
    }

    @AfterEach
    void closeStores() {
        stores.closeAll();
    }

    @Test
    void touch_records_when_a_user_was_last_seen() {
        UserId user = randomUser();

        presence.touch(user, T0.plusSeconds(5));

        assertThat(presence.seenSince(T0.plusSeconds(5))).contains(user);
        assertThat(presence.seenSince(T0.plusSeconds(5).plusMillis(1))).doesNotContain(user);
    }

    @Test
    void the_first_touch_reports_no_previous_sighting_and_later_ones_report_the_previous_time() {
        UserId user = randomUser();

        assertThat(presence.touch(user, T0)).isEmpty();
        assertThat(presence.touch(user, T0.plus(1, MINUTES))).contains(T0);
        assertThat(presence.touch(user, T0.plus(2, MINUTES))).contains(T0.plus(1, MINUTES));
    }

    @Test
    void an_older_sighting_changes_nothing_and_reports_the_newer_time() {
        UserId user = randomUser();
        Instant latest = T0.plus(10, MINUTES);
        presence.touch(user, latest);

        assertThat(presence.touch(user, T0.plus(5, MINUTES))).contains(latest);

        assertThat(presence.seenSince(latest)).as("last seen did not move back").contains(user);
        assertThat(presence.touch(user, latest.plus(1, MINUTES))).contains(latest);
    }

    @Test
    void seen_since_among_some_users_answers_only_those_of_them_seen_at_or_after_the_instant() {
        UserId before = randomUser();
        UserId exactly = randomUser();
        UserId after = randomUser();
        UserId notAsked = randomUser();
        UserId neverSeen = randomUser();
        presence.touch(before, T0.minusMillis(1));
        presence.touch(exactly, T0);
        presence.touch(after, T0.plusMillis(1));
        presence.touch(notAsked, T0.plusMillis(1));

        assertThat(presence.seenSince(T0, Set.of(before, exactly, after, neverSeen)))
                .containsExactlyInAnyOrder(exactly, after);
        assertThat(presence.seenSince(T0, Set.of())).isEmpty();
    }

    @Test
    void seen_since_among_answers_for_more_users_than_one_call_carries() {
        Set<UserId> asked = new HashSet<>();
        for (int i = 0; i < 2_500; i++) {
            UserId user = randomUser();
            asked.add(user);
            if (i % 2 == 0) {
                presence.touch(user, T0);
            }
        }

        assertThat(presence.seenSince(T0, asked)).hasSize(1_250);
    }

    @Test
    void seen_since_includes_users_seen_at_or_after_the_instant_and_excludes_older_ones() {
        UserId before = randomUser();
        UserId exactly = randomUser();
        UserId after = randomUser();
        presence.touch(before, T0.minusMillis(1));
        presence.touch(exactly, T0);
        presence.touch(after, T0.plusMillis(1));

        assertThat(presence.seenSince(T0)).contains(exactly, after).doesNotContain(before);
    }

    @Test
    void count_since_counts_the_users_seen_since_listing_none() {
        Instant later = T0.plusSeconds(3_600);
        UserId before = randomUser();
        UserId exactly = randomUser();
        UserId after = randomUser();
        presence.touch(before, later.minusMillis(1));
        presence.touch(exactly, later);
        presence.touch(after, later.plusMillis(1));
        presence.touch(after, later.plusMillis(2));

        assertThat(presence.countSince(later)).isEqualTo(presence.seenSince(later).size()).isEqualTo(2);
    }

    @Test
    void prune_removes_and_returns_exactly_the_users_seen_before_the_instant() {
        UserId stale = randomUser();
        UserId exactly = randomUser();
        UserId fresh = randomUser();
        presence.touch(stale, LONG_AGO);
        presence.touch(exactly, LONG_AGO.plus(1, MINUTES));
        presence.touch(fresh, LONG_AGO.plus(2, MINUTES));

        List<UserId> pruned = presence.prune(LONG_AGO.plus(1, MINUTES));

        assertThat(pruned).contains(stale).doesNotContain(exactly, fresh);
        assertThat(presence.seenSince(LONG_AGO)).contains(exactly, fresh).doesNotContain(stale);
    }

    @Test
    void a_pruned_users_next_touch_reports_no_previous_sighting() {
        UserId user = randomUser();
        presence.touch(user, LONG_AGO);
        assertThat(presence.prune(LONG_AGO.plusSeconds(1))).contains(user);

        assertThat(presence.touch(user, LONG_AGO.plusSeconds(2))).isEmpty();
    }

    @Test
    void a_user_is_pruned_once() {
        UserId user = randomUser();
        presence.touch(user, LONG_AGO);
        presence.prune(LONG_AGO.plusSeconds(1));

        assertThat(presence.prune(LONG_AGO.plusSeconds(1))).doesNotContain(user);
    }

    private static UserId randomUser() {
        return UserId.of("user-" + UUID.randomUUID());
    }
}
