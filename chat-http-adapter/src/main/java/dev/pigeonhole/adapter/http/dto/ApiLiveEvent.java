package dev.pigeonhole.adapter.http.dto;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.Message;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;
import dev.pigeonhole.domain.model.mailbox.DirectMessage;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One event of the live protocol, the same on the WebSocket and on Server-Sent Events; fields a
 * type does not use are left out.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ApiLiveEvent(String type, String chatId, ApiMessage message, List<String> online,
                            List<String> offline, Boolean member, ApiInvitation invitation) {

    /**
     * What a client is told of a signal; empty for the end of the feed, which each transport
     * answers in its own way (a close code, the end of the stream).
     */
    public static Optional<ApiLiveEvent> from(LiveSignal signal) {
        return switch (signal) {
            case LiveSignal.Event(var channel, LiveEvent.MessagePosted posted) ->
                    Optional.of(message(posted.chat(), posted.message()));
            case LiveSignal.Presence diff -> Optional.of(presence(diff));
            // The feed folds presence into diffs: no one change is the client's business.
            case LiveSignal.Event(var channel, LiveEvent.PresenceChanged changed) -> Optional.empty();
            // The feed hands out only the user's own: a chat it was added to or left.
            case LiveSignal.Event(var channel, LiveEvent.MembershipChanged changed) -> Optional.of(membership(changed));
            // The feed hands out only the user's own mailbox.
            case LiveSignal.Event(var channel, LiveEvent.DirectMessageDelivered delivered) ->
                    Optional.of(mailbox(delivered.message()));
            // The feed hands out only the user's own invitations.
            case LiveSignal.Event(var channel, LiveEvent.Invited invited) ->
                    Optional.of(invitation(invited.invitation()));
            case LiveSignal.Resync resync -> Optional.of(resync());
            case LiveSignal.Closed closed -> Optional.empty();
        };
    }

    public static ApiLiveEvent message(ChatId chat, Message message) {
        return new ApiLiveEvent("message", chat.value(), ApiMessage.from(message), null, null, null, null);
    }

    /** A message arrived in the user's own mailbox; it stays there until acknowledged over HTTP. */
    public static ApiLiveEvent mailbox(DirectMessage message) {
        return new ApiLiveEvent("mailbox", null, ApiMessage.from(message), null, null, null, null);
    }

    /** The user was added to a chat ({@code member} true) or left it. */
    public static ApiLiveEvent membership(LiveEvent.MembershipChanged changed) {
        return new ApiLiveEvent("membership", changed.chat().value(), null, null, null, changed.member(), null);
    }

    /** Someone invited the user to a chat; it answers over HTTP. */
    public static ApiLiveEvent invitation(Invitation invitation) {
        return new ApiLiveEvent("invitation", invitation.chat().value(), null, null, null, null,
                ApiInvitation.from(invitation));
    }

    /** Who came online and who went offline since the last presence event, sorted. */
    public static ApiLiveEvent presence(LiveSignal.Presence diff) {
        return new ApiLiveEvent("presence", null, null, sorted(diff.online()), sorted(diff.offline()), null, null);
    }

    private static List<String> sorted(Set<UserId> users) {
        return users.stream().sorted().map(UserId::value).toList();
    }

    public static ApiLiveEvent resync() {
        return new ApiLiveEvent("resync", null, null, null, null, null, null);
    }
}
