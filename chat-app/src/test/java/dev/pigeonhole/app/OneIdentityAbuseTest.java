package dev.pigeonhole.app;

import dev.pigeonhole.adapter.http.ApiClient;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;
import tools.jackson.databind.JsonNode;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The attack: sign in as {@code Casey} beside {@code casey} and pass for her in member lists and
 * mailboxes. A name is one person however it is capitalised, on every store.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(StoreUnderTest.class)
class OneIdentityAbuseTest {

    @RegisterExtension
    final RunningServer server;

    OneIdentityAbuseTest(StoreUnderTest store) {
        this.server = RunningServer.on(store::config);
    }

    @Test
    void three_capitalisations_of_a_name_sign_in_as_one_user() {
        String casey = ApiClient.randomUser("casey");

        List<String> users = List.of("Casey" + casey.substring(5), casey.toUpperCase(Locale.ROOT),
                        "cAsey" + casey.substring(5)).stream()
                .map(spelling -> server.api().postJson("/api/session", null, Map.of("user", spelling)))
                .map(signedIn -> {
                    assertThat(signedIn.status()).as(signedIn.toString()).isEqualTo(200);
                    return signedIn.json().get("user").stringValue();
                })
                .toList();

        assertThat(users).containsOnly(casey);
    }

    @Test
    void a_direct_message_to_a_capitalised_name_reaches_the_one_user() {
        String casey = ApiClient.randomUser("casey");
        String caseyToken = server.api().signIn("Casey" + casey.substring(5));
        String alice = ApiClient.randomUser("alice");
        String aliceToken = server.api().signIn(alice);

        ApiClient.Response delivered = server.api().postJson(
                "/api/users/" + casey.toUpperCase(Locale.ROOT) + "/mailbox", aliceToken, Map.of("message", "hi casey"));

        assertThat(delivered.status()).as(delivered.toString()).isEqualTo(201);
        for (String token : List.of(caseyToken, server.api().signIn(casey))) {
            ApiClient.Response mailbox = server.api().get("/api/mailbox", token);
            assertThat(mailbox.status()).as(mailbox.toString()).isEqualTo(200);
            assertThat(mailbox.json().get("messages").values()).extracting(message -> message.get("message").stringValue())
                    .containsExactly("hi casey");
        }
    }

    @Test
    void a_capitalised_member_of_a_chat_is_the_same_member() {
        String casey = ApiClient.randomUser("casey");
        String caseyToken = server.api().signIn(casey);
        String alice = ApiClient.randomUser("alice");
        String aliceToken = server.api().signIn(alice);

        ApiClient.Response created = server.api().postJson("/api/chats", aliceToken,
                Map.of("members", List.of(casey.toUpperCase(Locale.ROOT), casey), "message", "hello"));

        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        JsonNode listed = server.api().get("/api/chats", caseyToken).json().values().iterator().next();
        assertThat(listed.get("members").values()).extracting(JsonNode::stringValue)
                .containsExactlyInAnyOrder(alice, casey);
    }
}
