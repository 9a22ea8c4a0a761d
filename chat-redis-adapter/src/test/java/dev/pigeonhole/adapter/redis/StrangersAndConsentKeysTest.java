package dev.pigeonhole.adapter.redis;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.ConsentSnapshot;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.model.limits.Limits;
import dev.pigeonhole.domain.model.mailbox.Sender;
import dev.pigeonhole.tck.StoreFixture;
import dev.pigeonhole.testsupport.redis.RedisNode;
import dev.pigeonhole.testsupport.redis.RedisServers;
import dev.pigeonhole.testsupport.redis.RedisTarget;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the contracts cannot see from outside: where a mailbox keeps its strangers' ids and a user
 * its consent, that nothing of either outlives what it describes, and that both stay in the
 * owner's slot on a cluster, where one script must reach all of a mailbox.
 */
class StrangersAndConsentKeysTest {

    private static final Instant AT = Instant.parse("2026-11-27T10:00:00.123Z");

    private StoreFixture store;
    private RedisTarget target;
    private KeyLayout keys;

    @AfterEach
    void closeStore() {
        if (store != null) {
            store.close();
        }
    }

    @ParameterizedTest(name = "book layout: {0}")
    @ValueSource(booleans = {false, true})
    void a_mailbox_forgets_a_strangers_id_once_it_is_acknowledged(boolean book) {
        open(RedisServers.single(), book);
        UserId owner = user();
        store.mailboxes().deliver(owner, user(), "one", AT, Sender.STRANGER);
        store.mailboxes().deliver(owner, user(), "two", AT, Sender.CO_MEMBER);
        store.mailboxes().deliver(owner, user(), "three", AT, Sender.STRANGER);
        String strangers = keys.mailbox(owner).strangers();

        assertThat(target.admin("ZRANGE", strangers, "0", "-1")).isEqualTo("[1, 3]");
        store.mailboxes().acknowledge(owner, 2);
        assertThat(target.admin("ZRANGE", strangers, "0", "-1")).isEqualTo("[3]");
        store.mailboxes().acknowledge(owner, 3);
        assertThat(target.admin("EXISTS", strangers)).as("an empty share leaves no key").isEqualTo("0");
    }

    @ParameterizedTest(name = "book layout: {0}")
    @ValueSource(booleans = {false, true})
    void a_consent_is_kept_as_its_version_and_its_json_with_times_in_epoch_millis(boolean book) {
        open(RedisServers.single(), book);
        UserId owner = user();
        ConsentSnapshot consent = new ConsentSnapshot(owner, Optional.of(AddPolicy.CO_MEMBERS), List.of(user()),
                List.of(new Invitation(ChatId.of("c-" + owner), user(), 4, 2, AT)));

        assertThat(store.consents().replace(owner, 0, consent)).isTrue();

        String key = keys.consent(owner);
        assertThat(key).isEqualTo(keys.prefix() + (book ? "consent:" + owner.value()
                : "user:{" + owner.value() + "}:consent"));
        assertThat(target.admin("HGET", key, "version")).isEqualTo("1");
        assertThat(target.admin("HGET", key, "consent")).contains("\"policy\":\"co-members\"")
                .contains("\"at\":" + AT.toEpochMilli());
    }

    @Test
    void a_users_mailbox_and_consent_share_the_users_slot_on_a_cluster() {
        open(RedisServers.cluster(), false);
        UserId owner = user();
        KeyLayout.MailboxKeys mailbox = keys.mailbox(owner);
        RedisNode node = target.masterOf(mailbox.messages());

        List<String> slots = List.of(mailbox.messages(), mailbox.ids(), mailbox.strangers(), keys.consent(owner),
                keys.chatsOf(owner)).stream().map(key -> target.adminOn(node, "CLUSTER", "KEYSLOT", key)).toList();

        assertThat(slots).containsOnly(slots.getFirst());
    }

    private void open(RedisTarget on, boolean book) {
        target = on;
        keys = book ? KeyLayout.book(target.newPrefix()) : KeyLayout.tagged(target.newPrefix());
        store = RedisStoreFixture.open(target, RedisClientKind.JEDIS, keys, Limits.DEFAULTS, UnaryOperator.identity());
    }

    private static UserId user() {
        return UserId.of("u" + UUID.randomUUID().toString().substring(0, 8));
    }
}
