package dev.pigeonhole.tck;

import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.limits.RateLimit;
import dev.pigeonhole.domain.model.limits.RateLimits.Write;
import dev.pigeonhole.domain.port.out.Quotas;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What every {@link Quotas} promises (docs/DESIGN.md §3, "Quotas"): a bucket admits its burst and then
 * refuses with the wait, refills over the store's own clock, is one per user and kind of write,
 * is the same bucket for every server sharing the store, and never admits more than it holds
 * however many callers take at once.
 */
@Timeout(60)
public abstract class QuotasContract {

    /** A bucket that refills so slowly that no test sees a token come back by itself. */
    private static final RateLimit THREE_AN_HOUR_EACH = new RateLimit(3, Duration.ofHours(3));

    private StoreFixture store;
    private Quotas quotas;

    protected abstract StoreFixture newStore(Limits limits);

    @BeforeEach
    public void openStore() {
        store = newStore(Limits.DEFAULTS);
        quotas = store.quotas();
    }

    @AfterEach
    public void closeStore() {
        store.close();
    }

    private static UserId user(String name) {
        return UserId.of(name + "-" + UUID.randomUUID());
    }

    @Test
    public void a_bucket_admits_its_burst_then_refuses_and_says_how_long_to_wait() {
        UserId alice = user("alice");

        for (int take = 1; take <= 3; take++) {
            assertThat(quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH).admitted()).as("take %d", take).isTrue();
        }
        RateLimit.Take refused = quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH);

        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofHours(1));
    }

    @Test
    public void a_refused_take_uses_nothing_up() {
        UserId alice = user("alice");
        for (int take = 1; take <= 3; take++) {
            quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH);
        }

        Duration firstWait = quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH).retryAfter();
        Duration secondWait = quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH).retryAfter();

        assertThat(secondWait).as("refusals do not push the next token further away").isLessThanOrEqualTo(firstWait);
    }

    @Test
    public void a_bucket_refills_over_the_stores_clock() {
        UserId alice = user("alice");
        RateLimit oneEveryTenthOfASecond = new RateLimit(1, Duration.ofMillis(100));
        assertThat(quotas.take(alice, Write.INVITE, oneEveryTenthOfASecond).admitted()).isTrue();
        RateLimit.Take refused = quotas.take(alice, Write.INVITE, oneEveryTenthOfASecond);
        assertThat(refused.admitted()).isFalse();
        assertThat(refused.retryAfter()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(100));

        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> quotas.take(alice, Write.INVITE, oneEveryTenthOfASecond).admitted());
    }

    @Test
    public void each_user_and_each_kind_of_write_has_a_bucket_of_its_own() {
        UserId alice = user("alice");
        UserId bob = user("bob");
        for (int take = 1; take <= 3; take++) {
            quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH);
        }

        assertThat(quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH).admitted()).isFalse();
        assertThat(quotas.take(bob, Write.CREATE, THREE_AN_HOUR_EACH).admitted()).isTrue();
        assertThat(quotas.take(alice, Write.DELIVER, THREE_AN_HOUR_EACH).admitted()).isTrue();
    }

    @Test
    public void two_servers_sharing_the_store_share_the_bucket() {
        UserId alice = user("alice");
        Quotas elsewhere = store.quotasOfAnotherInstance();

        assertThat(quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH).admitted()).isTrue();
        assertThat(elsewhere.take(alice, Write.CREATE, THREE_AN_HOUR_EACH).admitted()).isTrue();
        assertThat(quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH).admitted()).isTrue();

        assertThat(elsewhere.take(alice, Write.CREATE, THREE_AN_HOUR_EACH).admitted()).isFalse();
        assertThat(quotas.take(alice, Write.CREATE, THREE_AN_HOUR_EACH).admitted()).isFalse();
    }

    @Test
    public void eight_callers_at_once_never_take_more_than_the_burst() throws Exception {
        UserId alice = user("alice");
        RateLimit fiveAnHourEach = new RateLimit(5, Duration.ofHours(5));
        int callers = 8;
        CountDownLatch start = new CountDownLatch(1);
        AtomicInteger admitted = new AtomicInteger();
        List<Future<?>> done = new ArrayList<>();
        try (ExecutorService pool = Executors.newFixedThreadPool(callers)) {
            for (int caller = 0; caller < callers; caller++) {
                Quotas through = caller % 2 == 0 ? quotas : store.quotasOfAnotherInstance();
                done.add(pool.submit(() -> {
                    start.await();
                    for (int take = 0; take < 5; take++) {
                        if (through.take(alice, Write.SEND, fiveAnHourEach).admitted()) {
                            admitted.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> caller : done) {
                caller.get();
            }
        }

        assertThat(admitted.get()).as("40 takes against a bucket of 5").isEqualTo(5);
    }

    @Test
    public void no_limit_admits_every_take() {
        UserId alice = user("alice");

        for (int take = 0; take < 50; take++) {
            assertThat(quotas.take(alice, Write.CREATE, RateLimit.NONE).admitted()).isTrue();
        }
    }
}
