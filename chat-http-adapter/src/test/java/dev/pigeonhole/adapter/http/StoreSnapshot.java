package dev.pigeonhole.adapter.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pigeonhole.domain.model.UserId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the store holds for a few users, read through the API itself, so a test can show that a
 * refused request changed nothing. Presence is left out: every signed-in request touches it.
 */
final class StoreSnapshot {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private StoreSnapshot() {
    }

    /**
     * @param users whose chat list, pending messages, mailbox, invitations, blocks and settings to read
     * @param chat  a chat whose whole history to read as its member {@code reader}; null for none
     */
    static String of(TestApi api, List<String> users, String chat, String reader) {
        StringBuilder state = new StringBuilder();
        for (String user : users) {
            state.append(user).append(" chats ").append(read(api, "/api/chats", user)).append('\n');
            state.append(user).append(" pending ").append(read(api, "/api/pending", user)).append('\n');
            state.append(user).append(" mailbox ").append(mailbox(api, user)).append('\n');
            state.append(user).append(" invitations ").append(read(api, "/api/invitations", user)).append('\n');
            state.append(user).append(" blocks ").append(read(api, "/api/blocks", user)).append('\n');
            state.append(user).append(" settings ").append(read(api, "/api/settings", user)).append('\n');
        }
        if (chat != null) {
            state.append(chat).append(" history ").append(history(api, chat, reader));
        }
        return state.toString();
    }

    static String history(TestApi api, String chat, String reader) {
        return read(api, "/api/chats/" + chat + "/messages?after=0&limit=1000", reader);
    }

    /** A GET that must succeed, as {@code user}. */
    static String read(TestApi api, String path, String user) {
        ApiClient.Response response = api.client.get(path, token(api, user));
        assertThat(response.status()).as("reading %s for a snapshot: %s", path, response.body()).isEqualTo(200);
        return response.body();
    }

    /** What a mailbox holds: reading it removes nothing, so a snapshot changes nothing. */
    static String mailbox(TestApi api, String owner) {
        return read(api, "/api/mailbox?max=1000", owner);
    }

    /** Issued now, not at sign-in: a test may have moved the clock past a sign-in token's lifetime. */
    private static String token(TestApi api, String user) {
        return api.tokens.issue(UserId.of(user));
    }
}
