package dev.pigeonhole.adapter.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HttpSmokeTest {

    @Test
    void a_signed_in_user_opens_a_chat_and_the_other_member_sees_it_pending() {
        try (TestApi api = TestApi.start()) {
            String alice = api.client.signIn("alice");
            String bob = api.client.signIn("bob");

            ApiClient.Response created = api.client.post("/api/chats", alice, "{\"members\":[\"bob\"],\"message\":\"hi\"}");

            assertThat(created.status()).isEqualTo(201);
            ApiClient.Response pending = api.client.get("/api/pending", bob);
            assertThat(pending.json().get("chats").get(0).get("messages").get(0).get("message").stringValue())
                    .isEqualTo("hi");
        }
    }
}
