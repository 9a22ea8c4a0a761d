package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.StoreUnavailableException;
import dev.pigeonhole.domain.model.TooManyChatsException;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.consent.AddPolicy;
import dev.pigeonhole.domain.model.consent.Consent;
import dev.pigeonhole.domain.model.consent.ConsentLimits;
import dev.pigeonhole.domain.model.consent.Invitation;
import dev.pigeonhole.domain.model.live.Channel;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.port.out.Channels;
import dev.pigeonhole.domain.port.out.Chats;
import dev.pigeonhole.domain.port.out.Consents;

import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * Who may reach whom: each user's {@link Consent}, read and changed under optimistic concurrency,
 * and whether two users share a chat, which the chats say. The chat, mailbox and consent services
 * all ask it; the rules it applies are the aggregate's.
 *
 * <p>What it decides is decided before the store's own step and not inside it, since a user's
 * consent and a chat live apart (on a Redis Cluster, in different slots): a block made while an
 * add is on its way may let that one add through. It never lets one through afterwards.
 */
public final class Acquaintances {

    /** Rounds of read, apply, compare-and-swap before giving up: each lost round needs another writer. */
    private static final int ATTEMPTS = 16;

    private final Consents consents;
    private final Chats chats;
    private final Channels channels;
    private final ConsentLimits limits;

    public Acquaintances(Consents consents, Chats chats, Channels channels, ConsentLimits limits) {
        this.consents = Objects.requireNonNull(consents, "consents");
        this.chats = Objects.requireNonNull(chats, "chats");
        this.channels = Objects.requireNonNull(channels, "channels");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** The user's consent as kept now, to read. */
    public Consent consentOf(UserId user) {
        return Consent.restore(consents.read(user).consent(), limits);
    }

    /**
     * Applies {@code operation} to the user's consent and keeps the result, as one step: if another
     * write came first, the operation runs again on what that write left. A refusal the operation
     * throws changes nothing.
     */
    public <T> T change(UserId user, Function<Consent, T> operation) {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
            Consents.Kept kept = consents.read(user);
            Consent consent = Consent.restore(kept.consent(), limits);
            T answer = operation.apply(consent);
            if (consents.replace(user, kept.version(), consent.snapshot())) {
                return answer;
            }
        }
        throw new StoreUnavailableException("the consent of " + user + " changed " + ATTEMPTS
                + " times while one change was being made to it; try again", null);
    }

    /** Whether the two share a chat; everyone shares one with itself. */
    public boolean shareAChat(UserId one, UserId other) {
        if (one.equals(other)) {
            return true;
        }
        Set<ChatId> ofOne = new HashSet<>(chats.chatIdsOf(one));
        return chats.chatIdsOf(other).stream().anyMatch(ofOne::contains);
    }

    /**
     * Whether {@code by} may put {@code user} in a chat directly; if not, it invites. A user in as
     * many chats as it may be is only ever invited: it chooses which chat to leave for the new one.
     */
    public boolean mayAdd(UserId by, UserId user) {
        return adding(by).mayAdd(user);
    }

    /**
     * {@code by} about to add several users, as a creator does: its own chats are read once, and
     * each user costs one read of its consent and one of its chats.
     */
    public Adder adding(UserId by) {
        return new Adder(by);
    }

    /** One user adding others; see {@link #adding}. */
    public final class Adder {

        private final UserId by;
        private Set<ChatId> chatsOfBy;

        private Adder(UserId by) {
            this.by = Objects.requireNonNull(by, "by");
        }

        public boolean mayAdd(UserId user) {
            if (by.equals(user)) {
                return true;
            }
            Consent consent = consentOf(user);
            if (consent.blocks(by)) {
                return false;
            }
            List<ChatId> chatsOfUser = chats.chatIdsOf(user);
            if (chatsOfUser.size() >= limits.maxChatsPerUser()) {
                return false;
            }
            return consent.admitsDirectly(by, consent.policy() == AddPolicy.ANYONE
                    || chatsOfUser.stream().anyMatch(chatsOfBy()::contains));
        }

        private Set<ChatId> chatsOfBy() {
            if (chatsOfBy == null) {
                chatsOfBy = new HashSet<>(chats.chatIdsOf(by));
            }
            return chatsOfBy;
        }
    }

    /**
     * Holds the invitation for the invitee and tells its live feeds, unless the invitee blocked the
     * inviter: then nothing happens, and the inviter cannot tell.
     */
    public void invite(UserId invitee, Invitation invitation, Instant now) {
        if (change(invitee, consent -> consent.invite(invitation, now))) {
            channels.publish(Channel.ofUser(invitee), new LiveEvent.Invited(invitee, invitation));
        }
    }

    /**
     * @throws TooManyChatsException if the user is in as many chats as one user may be, and
     *                               {@code chat} is not one of them
     */
    public void checkRoomFor(UserId user, ChatId chat) {
        List<ChatId> in = chats.chatIdsOf(user);
        if (in.size() >= limits.maxChatsPerUser() && !in.contains(chat)) {
            throw new TooManyChatsException(user, limits.maxChatsPerUser());
        }
    }

    /** @throws TooManyChatsException if the user is in as many chats as one user may be */
    public void checkRoomForANewChat(UserId user) {
        if (chats.chatIdsOf(user).size() >= limits.maxChatsPerUser()) {
            throw new TooManyChatsException(user, limits.maxChatsPerUser());
        }
    }
}
