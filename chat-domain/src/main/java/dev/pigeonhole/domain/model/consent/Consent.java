package dev.pigeonhole.domain.model.consent;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.InvalidInputException;
import dev.pigeonhole.domain.model.NoInvitationException;
import dev.pigeonhole.domain.model.UserId;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * One user's say over who reaches it: the aggregate in which every rule of consent is written
 * once (docs/DESIGN.md §3, "Consent"). It holds the user's {@link AddPolicy}, the users it blocked and the
 * invitations waiting for its answer; whether someone shares a chat with it is the chats' to say,
 * and is handed in.
 *
 * <p>What others can make it hold is bounded: invitations by {@link ConsentLimits#maxInvitations()}
 * (the oldest goes first) and by their lifetime, blocks by {@link ConsentLimits#maxBlocks()}, which
 * only the user itself adds.
 *
 * <p>A store keeps it as a whole, behind a version, and the caller applies an operation to what it
 * read and writes the result back only if nothing else wrote meanwhile ({@code Consents}), so no
 * store needs a copy of these rules: a user's consent changes seldom, and a lost race is simply
 * run again.
 *
 * <p>Not thread-safe: each operation runs on a copy restored for it.
 */
public final class Consent {

    private final UserId owner;
    private final ConsentLimits limits;
    private AddPolicy chosen;
    private final TreeSet<UserId> blocked = new TreeSet<>();
    /** Oldest first, at most one per chat. */
    private final List<Invitation> invitations = new ArrayList<>();

    private Consent(UserId owner, ConsentLimits limits) {
        this.owner = Objects.requireNonNull(owner, "owner");
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** A consent as a store kept it ({@link #snapshot}). */
    public static Consent restore(ConsentSnapshot kept, ConsentLimits limits) {
        Consent consent = new Consent(kept.owner(), limits);
        consent.chosen = kept.chosen().orElse(null);
        consent.blocked.addAll(kept.blocked());
        consent.invitations.addAll(kept.invitations());
        consent.invitations.sort(Comparator.comparing(Invitation::at));
        return consent;
    }

    public ConsentSnapshot snapshot() {
        return new ConsentSnapshot(owner, Optional.ofNullable(chosen), List.copyOf(blocked), invitations);
    }

    public UserId owner() {
        return owner;
    }

    /** The policy the user chose, or the server's default if it chose none. */
    public AddPolicy policy() {
        return chosen == null ? limits.defaultPolicy() : chosen;
    }

    public void choose(AddPolicy policy) {
        chosen = Objects.requireNonNull(policy, "policy");
    }

    /**
     * Whether {@code by} may add the user to a chat directly rather than invite it: never someone
     * it blocked, and under {@link AddPolicy#CO_MEMBERS} only someone who shares a chat with it.
     */
    public boolean admitsDirectly(UserId by, boolean sharesAChat) {
        if (blocks(by)) {
            return false;
        }
        return policy() == AddPolicy.ANYONE || sharesAChat;
    }

    public boolean blocks(UserId user) {
        return blocked.contains(user);
    }

    /**
     * Holds the invitation, unless its inviter is blocked: then it is dropped without a word, and
     * the inviter is answered as for any invitation, so a block is never revealed. A second
     * invitation to a chat already pending keeps the first, whose join point reads no less. Past
     * the limit the oldest invitation goes.
     *
     * @return whether the invitation is now pending (so whether to tell the user of it)
     */
    public boolean invite(Invitation invitation, Instant now) {
        forgetLapsed(now);
        if (blocks(invitation.inviter()) || invitation.inviter().equals(owner)) {
            return false;
        }
        if (find(invitation.chat()).isPresent()) {
            return false;
        }
        invitations.add(invitation);
        while (invitations.size() > limits.maxInvitations()) {
            invitations.removeFirst();
        }
        return true;
    }

    /**
     * The pending invitation to the chat, for the user to accept. Accepting is the chats' step; the
     * invitation is {@link #forget forgotten} once it succeeded, so a refused accept changes nothing.
     *
     * @throws NoInvitationException if none is pending (never made, answered, or lapsed)
     */
    public Invitation invitationTo(ChatId chat, Instant now) {
        return find(chat).filter(invitation -> !lapsed(invitation, now))
                .orElseThrow(() -> new NoInvitationException(owner, chat));
    }

    /**
     * Declines the pending invitation to the chat; the inviter is not told.
     *
     * @throws NoInvitationException if none is pending
     */
    public void decline(ChatId chat, Instant now) {
        invitationTo(chat, now);
        forget(chat);
    }

    /** Drops the invitation to the chat, if there is one: once accepted, or once the chat has gone. */
    public void forget(ChatId chat) {
        invitations.removeIf(invitation -> invitation.chat().equals(chat));
    }

    /** The invitations still pending at {@code now}, newest first. Changes nothing. */
    public List<Invitation> pending(Instant now) {
        return invitations.stream().filter(invitation -> !lapsed(invitation, now)).toList().reversed();
    }

    /**
     * Blocks the user: its pending invitations vanish, and from now on its invitations and direct
     * messages are refused as if the user accepted none. Blocking again changes nothing.
     *
     * @throws InvalidInputException for the user itself, or past {@link ConsentLimits#maxBlocks()}
     */
    public void block(UserId user) {
        if (user.equals(owner)) {
            throw new InvalidInputException("you cannot block yourself");
        }
        if (!blocked.contains(user) && blocked.size() >= limits.maxBlocks()) {
            throw new InvalidInputException("you may block at most " + limits.maxBlocks()
                    + " users; unblock one first");
        }
        blocked.add(user);
        invitations.removeIf(invitation -> invitation.inviter().equals(user));
    }

    /** Unblocks the user; unblocking someone not blocked changes nothing. */
    public void unblock(UserId user) {
        blocked.remove(user);
    }

    /** The users it blocked, in {@link UserId} order. */
    public List<UserId> blocked() {
        return List.copyOf(blocked);
    }

    // ------------------------------------------------------------ the steps

    private Optional<Invitation> find(ChatId chat) {
        return invitations.stream().filter(invitation -> invitation.chat().equals(chat)).findFirst();
    }

    private boolean lapsed(Invitation invitation, Instant now) {
        return !invitation.at().plus(limits.invitationLifetime()).isAfter(now);
    }

    private void forgetLapsed(Instant now) {
        invitations.removeIf(invitation -> lapsed(invitation, now));
    }
}
