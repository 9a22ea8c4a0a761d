package dev.pigeonhole.adapter.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class IdempotentSendTest {

    @Test
    void a_send_retried_with_its_idempotency_key_is_answered_with_the_first_message_and_stored_once() {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            api.client.post("/api/chats", alice, "{\"members\":[],\"message\":\"first\",\"chatId\":\"retry\"}");
            String send = "{\"message\":\"did this arrive?\",\"idempotencyKey\":\"3f2a9c1e-0b7d-4e55-9a61-2c1f0d8e7b44\"}";

            ApiClient.Response first = api.client.post("/api/chats/retry/messages", alice, send);
            api.advance(java.time.Duration.ofMinutes(5));
            ApiClient.Response retried = api.client.post("/api/chats/retry/messages", alice, send);

            assertThat(first.status()).isEqualTo(201);
            assertThat(retried.status()).isEqualTo(201);
            assertThat(retried.body()).isEqualTo(first.body());
            assertThat(api.client.get("/api/chats/retry/messages", alice).json().get("lastId").longValue()).isEqualTo(2);
        }
    }

    @Test
    void a_key_reused_for_another_message_or_shaped_wrong_is_a_specific_400() {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            api.client.post("/api/chats", alice, "{\"members\":[],\"message\":\"first\",\"chatId\":\"reuse\"}");
            api.client.post("/api/chats/reuse/messages", alice, "{\"message\":\"one\",\"idempotencyKey\":\"k1\"}");

            ApiClient.Response reused = api.client.post("/api/chats/reuse/messages", alice,
                    "{\"message\":\"two\",\"idempotencyKey\":\"k1\"}");
            ApiClient.Response badKey = api.client.post("/api/chats/reuse/messages", alice,
                    "{\"message\":\"three\",\"idempotencyKey\":\"not a key\"}");

            assertThat(reused.status()).isEqualTo(400);
            assertThat(reused.json().get("type").stringValue()).isEqualTo("/problems/invalid-input");
            assertThat(reused.json().get("detail").stringValue()).contains("k1");
            assertThat(badKey.status()).isEqualTo(400);
            assertThat(badKey.json().get("type").stringValue()).isEqualTo("/problems/invalid-id");
            assertThat(api.client.get("/api/chats/reuse/messages", alice).json().get("lastId").longValue()).isEqualTo(2);
        }
    }
}
