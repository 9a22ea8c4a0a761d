package dev.pigeonhole.adapter.http;

import dev.pigeonhole.domain.model.consent.ConsentLimits;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.pigeonhole.adapter.http.ProblemAssertions.assertProblem;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Consent before membership (docs/DESIGN.md §3, "Consent"), through the HTTP API on a server with its default
 * add policy, {@code co-members}: each test is a row of what a hostile user could do before, and
 * shows it can no longer. The rules are the domain's; this proves the API carries them whole.
 */
class ConsentTest {

    private TestApi api;
    private String victim;
    private String stalker;

    private void start() {
        start(TestApi.withConsent());
    }

    private void start(TestApi server) {
        api = server;
        victim = api.client.signIn("victim");
        stalker = api.client.signIn("stalker");
    }

    @AfterEach
    void stop() {
        if (api != null) {
            api.close();
        }
    }

    @Test
    void a_strangers_add_at_creation_is_an_invitation_and_the_stranger_is_answered_as_for_a_direct_add() {
        start();
        String friend = api.client.signIn("friend");
        choose(friend, "anyone");

        ApiClient.Response invited = create(stalker, "to-victim", List.of("victim"), "hello");
        ApiClient.Response added = create(stalker, "to-friend", List.of("friend"), "hello");

        assertThat(invited.status()).isEqualTo(201);
        assertThat(invited.body().replace("to-victim", "the-chat")).isEqualTo(added.body().replace("to-friend", "the-chat"));
        assertThat(chatIds(victim)).isEmpty();
        assertThat(chatIds(friend)).containsExactly("to-friend");
        assertThat(api.client.get("/api/pending", victim).body()).doesNotContain("to-victim").doesNotContain("hello");
        JsonNode invitation = onlyInvitation(victim);
        assertThat(invitation.get("chatId").stringValue()).isEqualTo("to-victim");
        assertThat(invitation.get("inviter").stringValue()).isEqualTo("stalker");
        assertThat(invitation.get("members").intValue()).as("the stalker alone").isEqualTo(1);
        assertThat(Instant.parse(invitation.get("invitedAt").stringValue())).isEqualTo(api.now.get());
    }

    @Test
    void a_strangers_add_by_the_members_route_is_an_invitation_answered_as_a_direct_add() {
        start();
        String friend = api.client.signIn("friend");
        choose(friend, "anyone");
        create(stalker, "room", List.of(), "hello");

        ApiClient.Response invited = api.client.post("/api/chats/room/members", stalker, "{\"user\":\"victim\"}");
        ApiClient.Response added = api.client.post("/api/chats/room/members", stalker, "{\"user\":\"friend\"}");

        assertThat(invited.status()).isEqualTo(204);
        assertThat(invited.body()).isEqualTo(added.body()).isEmpty();
        assertThat(chatIds(victim)).isEmpty();
        assertThat(chatIds(friend)).containsExactly("room");
        assertThat(invitationIds(victim)).containsExactly("room");
        assertProblem(api.client.get("/api/chats/room/messages", victim), 404, "unknown-chat");
    }

    @Test
    void invitations_are_listed_newest_first() {
        start();
        String other = api.client.signIn("other");
        create(stalker, "first", List.of("victim"), "one");
        api.advance(Duration.ofSeconds(1));
        create(other, "second", List.of("victim"), "two");

        assertThat(invitationIds(victim)).containsExactly("second", "first");
    }

    @Test
    void accepting_reads_the_invitations_first_message_and_what_was_said_while_it_waited_and_nothing_before() {
        start();
        create(stalker, "created", List.of("victim"), "the invitation's own");
        send(stalker, "created", "while it waited");
        create(stalker, "later", List.of(), "before the invitation");
        assertThat(api.client.post("/api/chats/later/members", stalker, "{\"user\":\"victim\"}").status()).isEqualTo(204);
        send(stalker, "later", "after the invitation");

        assertThat(api.client.post("/api/invitations/created/accept", victim).status()).isEqualTo(204);
        assertThat(api.client.post("/api/invitations/later/accept", victim).status()).isEqualTo(204);

        assertThat(texts(victim, "created")).containsExactly("the invitation's own", "while it waited");
        assertThat(texts(victim, "later")).containsExactly("after the invitation");
        assertThat(chatIds(victim)).containsExactlyInAnyOrder("created", "later");
        assertThat(invitationIds(victim)).isEmpty();
        assertProblem(api.client.post("/api/invitations/created/accept", victim), 404, "no-invitation");
    }

    @Test
    void leaving_and_being_re_added_by_the_stranger_is_an_invitation_again_not_a_membership() {
        start();
        create(stalker, "room", List.of("victim"), "hello");
        assertThat(api.client.post("/api/invitations/room/accept", victim).status()).isEqualTo(204);
        assertThat(api.client.delete("/api/chats/room/members/victim", victim).status()).isEqualTo(204);

        ApiClient.Response again = api.client.post("/api/chats/room/members", stalker, "{\"user\":\"victim\"}");

        assertThat(again.status()).isEqualTo(204);
        assertThat(chatIds(victim)).isEmpty();
        assertThat(invitationIds(victim)).containsExactly("room");
    }

    @Test
    void declining_removes_the_invitation_and_tells_the_inviter_nothing() {
        start();
        create(stalker, "room", List.of("victim"), "hello");

        ApiClient.Response declined = api.client.post("/api/invitations/room/decline", victim);

        assertThat(declined.status()).isEqualTo(204);
        assertThat(invitationIds(victim)).isEmpty();
        assertThat(chatIds(victim)).isEmpty();
        assertProblem(api.client.post("/api/invitations/room/accept", victim), 404, "no-invitation");
        assertProblem(api.client.post("/api/invitations/room/decline", victim), 404, "no-invitation");
        assertThat(api.client.get("/api/chats", stalker).body()).doesNotContain("victim");
    }

    @Test
    void a_co_member_adds_directly_at_creation_and_by_the_members_route() {
        start();
        String friend = api.client.signIn("friend");
        create(friend, "ours", List.of("victim"), "hi");
        assertThat(api.client.post("/api/invitations/ours/accept", victim).status()).isEqualTo(204);

        create(friend, "created", List.of("victim"), "welcome");
        create(friend, "room", List.of(), "hello");
        assertThat(api.client.post("/api/chats/room/members", friend, "{\"user\":\"victim\"}").status()).isEqualTo(204);

        assertThat(chatIds(victim)).containsExactlyInAnyOrder("ours", "created", "room");
        assertThat(invitationIds(victim)).isEmpty();
    }

    @Test
    void choosing_anyone_makes_a_strangers_add_direct() {
        start();
        assertThat(api.client.get("/api/settings", victim).json().get("addPolicy").stringValue()).isEqualTo("co-members");

        choose(victim, "anyone");
        create(stalker, "room", List.of("victim"), "hello");

        assertThat(api.client.get("/api/settings", victim).json().get("addPolicy").stringValue()).isEqualTo("anyone");
        assertThat(chatIds(victim)).containsExactly("room");
        assertThat(invitationIds(victim)).isEmpty();
    }

    @Test
    void a_stalker_who_made_a_chat_with_the_victim_does_not_see_its_presence_until_it_accepts() {
        start();
        create(stalker, "room", List.of("victim"), "hello");
        assertThat(api.client.get("/api/chats", victim).status()).as("a sign of life").isEqualTo(200);

        assertThat(online(stalker, "/api/presence")).doesNotContain("victim");
        assertThat(online(stalker, "/api/presence?within=PT10S")).doesNotContain("victim");
        assertThat(online(victim, "/api/presence")).doesNotContain("stalker");

        assertThat(api.client.post("/api/invitations/room/accept", victim).status()).isEqualTo(204);

        // The other side of the promise: once it accepted, the victim is a co-member like any other.
        assertThat(online(stalker, "/api/presence")).contains("victim");
    }

    @Test
    void blocking_hides_the_blocked_users_pending_invitations() {
        start();
        String other = api.client.signIn("other");
        create(stalker, "from-stalker", List.of("victim"), "hello");
        create(other, "from-other", List.of("victim"), "hello");

        block(victim, "stalker");

        assertThat(invitationIds(victim)).containsExactly("from-other");
        assertProblem(api.client.post("/api/invitations/from-stalker/accept", victim), 404, "no-invitation");
        assertThat(api.client.get("/api/blocks", victim).json().get("blocked").values())
                .extracting(JsonNode::stringValue).containsExactly("stalker");
    }

    @Test
    void a_blocked_users_later_invitations_vanish_and_it_is_answered_as_before() {
        start();
        String other = api.client.signIn("other");
        block(victim, "stalker");

        ApiClient.Response blocked = create(stalker, "by-stalker", List.of("victim"), "hello");
        ApiClient.Response unblocked = create(other, "by-other0", List.of("victim"), "hello");
        create(stalker, "room", List.of(), "hello");
        ApiClient.Response invited = api.client.post("/api/chats/room/members", stalker, "{\"user\":\"victim\"}");

        assertThat(blocked.status()).isEqualTo(201);
        assertThat(blocked.body().replace("by-stalker", "the-chat").replace("stalker", "sender"))
                .isEqualTo(unblocked.body().replace("by-other0", "the-chat").replace("other", "sender"));
        assertThat(invited.status()).isEqualTo(204);
        assertThat(invitationIds(victim)).containsExactly("by-other0");
        assertThat(chatIds(victim)).isEmpty();

        // Unblocking restores invitations from then on, not the ones that vanished.
        assertThat(api.client.delete("/api/blocks/stalker", victim).status()).isEqualTo(204);
        create(stalker, "after", List.of("victim"), "hello");
        assertThat(invitationIds(victim)).containsExactlyInAnyOrder("by-other0", "after");
    }

    @Test
    void a_blocked_users_direct_messages_are_refused_exactly_as_a_stranger_past_its_share() {
        // A mailbox of 10 leaves strangers one message.
        start(TestApi.withConsent(TestApi.LIMITS.withMailboxCapacity(10), ConsentLimits.DEFAULTS));
        String crowd = api.client.signIn("crowd");
        block(victim, "stalker");

        ApiClient.Response fromBlocked = deliver(stalker, "victim", "let me in");
        assertThat(deliver(crowd, "victim", "first").status()).as("the strangers' share was free").isEqualTo(201);
        ApiClient.Response pastTheShare = deliver(crowd, "victim", "second");

        assertProblem(fromBlocked, 429, "rate-limited");
        assertThat(fromBlocked.body()).isEqualTo(pastTheShare.body());
        assertThat(fromBlocked.header("Retry-After")).isEqualTo(pastTheShare.header("Retry-After"));
        assertThat(api.client.get("/api/mailbox", victim).body()).doesNotContain("let me in");
    }

    @Test
    void strangers_hold_a_tenth_of_a_mailbox_a_co_member_still_delivers_and_a_full_one_answers_a_stranger_429() {
        start(TestApi.withConsent(TestApi.LIMITS.withMailboxCapacity(10), ConsentLimits.DEFAULTS));
        String friend = api.client.signIn("friend");
        String other = api.client.signIn("other");
        create(friend, "ours", List.of("victim"), "hi");
        assertThat(api.client.post("/api/invitations/ours/accept", victim).status()).isEqualTo(204);

        assertThat(deliver(stalker, "victim", "one").status()).isEqualTo(201);
        assertProblem(deliver(stalker, "victim", "two"), 429, "rate-limited");
        assertProblem(deliver(other, "victim", "three"), 429, "rate-limited");
        for (int i = 1; i <= 9; i++) {
            assertThat(deliver(friend, "victim", "friend " + i).status()).isEqualTo(201);
        }
        assertProblem(deliver(friend, "victim", "friend 10"), 409, "mailbox-full");

        // The stranger's message gone, the share is free again; filled by the friend, the mailbox
        // is full, and a stranger is still told only that it is limited.
        assertThat(api.client.post("/api/mailbox/read", victim, "{\"upTo\":1}").status()).isEqualTo(204);
        assertThat(deliver(friend, "victim", "friend 10").status()).isEqualTo(201);
        JsonNode refused = assertProblem(deliver(other, "victim", "four"), 429, "rate-limited");
        assertThat(refused.get("detail").stringValue()).doesNotContainIgnoringCase("full");
        assertProblem(deliver(friend, "victim", "friend 11"), 409, "mailbox-full");
    }

    @Test
    void the_invitation_event_reaches_the_invitee_on_the_websocket_and_the_event_stream_and_nothing_the_inviter()
            throws Exception {
        start();
        try (LiveClient socket = LiveClient.socket(api.server.port(), victim);
             LiveClient stream = LiveClient.events(api.server.port(), victim);
             LiveClient inviters = LiveClient.socket(api.server.port(), stalker)) {
            // Each connection has heard its user's own channel once before the invitation is made.
            deliver(victim, "victim", "listening");
            socket.next("mailbox");
            stream.next("mailbox");
            deliver(stalker, "stalker", "listening");
            inviters.next("mailbox");

            create(stalker, "room", List.of("victim"), "hello");

            for (LiveClient live : List.of(socket, stream)) {
                JsonNode event = live.next("invitation").event();
                assertThat(event.get("chatId").stringValue()).isEqualTo("room");
                assertThat(event.get("invitation").get("inviter").stringValue()).isEqualTo("stalker");
                assertThat(event.get("invitation").get("members").intValue()).isEqualTo(1);
            }
            // Published after the invitation: once the inviter has this, it would have had any news of it.
            deliver(stalker, "stalker", "witness");
            inviters.next(event -> event.get("type").stringValue().equals("mailbox")
                    && event.get("message").get("message").stringValue().equals("witness"));
            assertThat(inviters.received()).extracting(LiveClient.Received::type).doesNotContain("invitation");
            assertThat(inviters.received().toString()).doesNotContain("victim");
            assertThat(socket.messages("room")).as("no message of a chat it has not accepted").isEmpty();
        }
    }

    @Test
    void creating_a_chat_past_the_chats_one_user_may_be_in_is_a_409_that_opens_nothing() {
        start(TestApi.withConsent(TestApi.LIMITS, ConsentLimits.DEFAULTS.withMaxChatsPerUser(2)));
        create(victim, "a", List.of(), "mine");
        create(victim, "b", List.of(), "mine too");

        ApiClient.Response refused = api.client.post("/api/chats", victim,
                ApiClient.json(Map.of("members", List.of(), "message", "one more", "chatId", "c")).toString());

        assertProblem(refused, 409, "too-many-chats");
        assertThat(chatIds(victim)).containsExactlyInAnyOrder("a", "b");
    }

    @Test
    void an_accept_past_the_chats_one_user_may_be_in_is_a_409_that_changes_nothing() {
        start(TestApi.withConsent(TestApi.LIMITS, ConsentLimits.DEFAULTS.withMaxChatsPerUser(2)));
        create(victim, "a", List.of(), "mine");
        create(victim, "b", List.of(), "mine too");
        create(stalker, "room", List.of("victim"), "hello");

        ApiClient.Response refused = api.client.post("/api/invitations/room/accept", victim);

        assertProblem(refused, 409, "too-many-chats");
        assertThat(chatIds(victim)).containsExactlyInAnyOrder("a", "b");
        assertThat(invitationIds(victim)).containsExactly("room");
        assertThat(api.client.delete("/api/chats/b/members/victim", victim).status()).isEqualTo(204);
        assertThat(api.client.post("/api/invitations/room/accept", victim).status()).isEqualTo(204);
        assertThat(chatIds(victim)).containsExactlyInAnyOrder("a", "room");
    }

    // ------------------------------------------------------------ requests

    private ApiClient.Response create(String token, String chat, List<String> members, String message) {
        ApiClient.Response created = api.client.post("/api/chats", token,
                ApiClient.json(Map.of("members", members, "message", message, "chatId", chat)).toString());
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        return created;
    }

    private void send(String token, String chat, String message) {
        ApiClient.Response sent = api.client.post("/api/chats/" + chat + "/messages", token,
                ApiClient.json(Map.of("message", message)).toString());
        assertThat(sent.status()).as(sent.body()).isEqualTo(201);
    }

    private ApiClient.Response deliver(String token, String recipient, String message) {
        return api.client.post("/api/users/" + recipient + "/mailbox", token,
                ApiClient.json(Map.of("message", message)).toString());
    }

    private void choose(String token, String policy) {
        ApiClient.Response chosen = api.client.send("PUT", "/api/settings", token, "{\"addPolicy\":\"" + policy + "\"}");
        assertThat(chosen.status()).as(chosen.body()).isEqualTo(204);
    }

    private void block(String token, String user) {
        ApiClient.Response blocked = api.client.post("/api/blocks", token, "{\"user\":\"" + user + "\"}");
        assertThat(blocked.status()).as(blocked.body()).isEqualTo(204);
    }

    // ------------------------------------------------------------ reads

    private List<String> chatIds(String token) {
        ApiClient.Response chats = api.client.get("/api/chats", token);
        assertThat(chats.status()).isEqualTo(200);
        return chats.json().values().stream().map(chat -> chat.get("chatId").stringValue()).toList();
    }

    private List<String> invitationIds(String token) {
        return invitations(token).stream().map(invitation -> invitation.get("chatId").stringValue()).toList();
    }

    private JsonNode onlyInvitation(String token) {
        List<JsonNode> invitations = invitations(token);
        assertThat(invitations).hasSize(1);
        return invitations.getFirst();
    }

    private List<JsonNode> invitations(String token) {
        ApiClient.Response invitations = api.client.get("/api/invitations", token);
        assertThat(invitations.status()).as(invitations.body()).isEqualTo(200);
        return invitations.json().get("invitations").values().stream().toList();
    }

    private List<String> texts(String token, String chat) {
        ApiClient.Response page = api.client.get("/api/chats/" + chat + "/messages", token);
        assertThat(page.status()).as(page.body()).isEqualTo(200);
        return page.json().get("messages").values().stream().map(message -> message.get("message").stringValue())
                .toList();
    }

    private List<String> online(String token, String path) {
        ApiClient.Response online = api.client.get(path, token);
        assertThat(online.status()).as(online.body()).isEqualTo(200);
        return online.json().get("online").values().stream().map(JsonNode::stringValue).toList();
    }
}
