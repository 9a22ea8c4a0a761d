package dev.pigeonhole.adapter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The slots Redis's own CLUSTER KEYSLOT gives. */
class HashSlotTest {

    @Test
    void a_key_s_slot_is_redis_s() {
        assertThat(HashSlot.of("foo")).isEqualTo(12182);
        assertThat(HashSlot.of("hello")).isEqualTo(866);
        assertThat(HashSlot.of("123456789")).isEqualTo(0x31C3 % HashSlot.SLOTS);
    }

    @Test
    void a_hash_tag_decides_unless_it_is_empty() {
        assertThat(HashSlot.of("chat:{42}:msgs")).isEqualTo(HashSlot.of("42"));
        assertThat(HashSlot.of("{user1000}.following")).isEqualTo(HashSlot.of("{user1000}.followers"));
        assertThat(HashSlot.of("foo{}{bar}")).as("an empty tag hashes the whole key").isNotEqualTo(HashSlot.of("bar"));
        assertThat(HashSlot.of("foo{{bar}}zap")).isEqualTo(HashSlot.of("{bar"));
    }
}
