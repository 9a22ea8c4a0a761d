package dev.pigeonhole.domain.service.live;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.UserId;
import dev.pigeonhole.domain.model.chat.ChatSummary;
import dev.pigeonhole.domain.model.live.LiveEvent;
import dev.pigeonhole.domain.model.live.LiveSignal;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The presence one feed owes its client: news of the people its user shares a chat with (and of
 * the user itself), never of anyone else, folded into one diff handed out at most once per
 * {@link #INTERVAL}, however many people come and go.
 *
 * <p>Two threads meet here. The delivery thread {@link #admit admits} events: it is offered only
 * the presence of the people this fold {@linkplain LocalSubscription#hearPresenceOf named} to the
 * multiplexer, so a stranger's never reaches it, and a co-member's is folded into the pending
 * diff, each person in their latest state, so the diff never holds more people than the
 * co-members. Only the first change since the last diff queues anything: an empty
 * {@link LiveSignal.Presence}, a wake-up that stands for the diff, so the reader need not poll to
 * notice one. The feed's reader thread keeps the co-members up to date, naming and unnaming them,
 * and {@link #takeIfDue takes} the diff when it is due.
 *
 * <p>A feed in a chat of a thousand holds its co-members once: the multiplexer's list of who
 * listens for whom. The members of each chat are the store's own immutable set, shared by every
 * feed that read it, plus whoever joined or left since, which each feed keeps for itself.
 */
final class PresenceFold implements LocalSubscription.Intake {

    static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final LiveSignal.Presence WAKE_UP = new LiveSignal.Presence(Set.of(), Set.of());

    private final UserId user;
    private final InstantSource clock;
    /** The members of each of the user's chats, guarded by {@code this}; written by the reader. */
    private final Map<ChatId, ChatMembers> membersByChat = new HashMap<>();
    /** Where the co-members are named; null until {@link #listenThrough}. Read by the delivery thread. */
    private volatile LocalSubscription subscription;
    /** The subscription has left the multiplexer: no one is named any more. Guarded by {@code this}. */
    private boolean detached;
    /**
     * Each co-member's latest state since the last diff, guarded by itself, not by {@code this}:
     * so the delivery thread never waits for the reader renaming a thousand co-members.
     */
    private final Map<UserId, Boolean> pending = new HashMap<>();
    /** A wake-up was read and its diff is not handed out yet. The reader's alone. */
    private boolean woken;
    /** When the last diff went out; the reader's alone. */
    private Instant lastDiff;

    PresenceFold(UserId user, List<ChatSummary> chats, InstantSource clock) {
        this.user = user;
        this.clock = clock;
        chatsAre(chats);
    }

    /**
     * Names the user and its co-members to the subscription this fold is the intake of. Called
     * before the subscription follows presence, so no co-member's change after it goes unheard.
     */
    synchronized void listenThrough(LocalSubscription subscription) {
        this.subscription = subscription;
        subscription.hearPresenceOf(user);
        forEachCoMember(subscription::hearPresenceOf);
    }

    @Override
    public boolean choosesWhosePresence() {
        return true;
    }

    /** Unnames everyone, so a closed feed leaves nothing behind in the multiplexer. */
    @Override
    public synchronized void detached() {
        detached = true;
        if (subscription != null) {
            subscription.stopHearingPresenceOf(user);
            forEachCoMember(subscription::stopHearingPresenceOf);
        }
    }

    /** On the delivery thread: never blocks for long and never calls a store. */
    @Override
    public LiveSignal admit(LiveSignal.Event arriving) {
        if (!(arriving.event() instanceof LiveEvent.PresenceChanged changed)) {
            return arriving;
        }
        LocalSubscription named = subscription;
        synchronized (pending) {
            // Checked under the lock that forgetStrangers takes after unnaming someone: either
            // this sees them unnamed, or what it folds in is forgotten right after.
            if (named == null || !named.hearsPresenceOf(changed.user())) {
                return null; // stopped being a co-member just now
            }
            boolean first = pending.isEmpty();
            pending.put(changed.user(), changed.online());
            return first ? WAKE_UP : null;
        }
    }

    /** The reader read a wake-up: a diff is waiting. */
    void wokenUp() {
        woken = true;
    }

    /** How long until the waiting diff is due; empty when none is waiting. */
    Optional<Duration> dueIn() {
        if (!woken) {
            return Optional.empty();
        }
        if (lastDiff == null) {
            return Optional.of(Duration.ZERO);
        }
        Duration left = Duration.between(clock.instant(), lastDiff.plus(INTERVAL));
        return Optional.of(left.isNegative() ? Duration.ZERO : left);
    }

    /** The diff, if one is waiting and the last went out at least {@link #INTERVAL} ago. */
    Optional<LiveSignal.Presence> takeIfDue() {
        if (!dueIn().map(Duration::isZero).orElse(false)) {
            return Optional.empty();
        }
        woken = false;
        Set<UserId> online = new HashSet<>();
        Set<UserId> offline = new HashSet<>();
        synchronized (pending) {
            pending.forEach((who, isOnline) -> (isOnline ? online : offline).add(who));
            pending.clear();
        }
        if (online.isEmpty() && offline.isEmpty()) {
            return Optional.empty();
        }
        lastDiff = clock.instant();
        return Optional.of(new LiveSignal.Presence(online, offline));
    }

    /**
     * What the store says of the user's chats now: the co-members start again from it. A chat
     * whose list is the very set read before, and that no one joined or left since, names and
     * unnames no one: a feed re-reads its chats right after it starts, and a member list is
     * shared until it changes, so that read costs a reference per chat, not one per co-member.
     */
    synchronized void chatsAre(List<ChatSummary> chats) {
        Map<ChatId, ChatMembers> before = new HashMap<>(membersByChat);
        membersByChat.clear();
        for (ChatSummary chat : chats) {
            ChatMembers kept = before.get(chat.chat());
            membersByChat.put(chat.chat(), kept != null && kept.isExactly(chat.members()) ? kept
                    : new ChatMembers(chat.members()));
        }
        if (subscription == null || detached) {
            forgetStrangers();
            return;
        }
        membersByChat.forEach((chat, members) -> {
            if (before.get(chat) != members) {
                members.forEach(subscription::hearPresenceOf);
            }
        });
        before.forEach((chat, members) -> {
            if (membersByChat.get(chat) != members) {
                members.forEach(this::noLongerShared);
            }
        });
        forgetStrangers();
    }

    /** Someone else joined or left a chat of the user's; a chat not known here changes nothing. */
    synchronized void memberChanged(LiveEvent.MembershipChanged changed) {
        ChatMembers members = membersByChat.get(changed.chat());
        if (members == null) {
            return;
        }
        if (changed.member()) {
            if (members.add(changed.user()) && subscription != null && !detached) {
                subscription.hearPresenceOf(changed.user());
            }
        } else if (members.remove(changed.user())) {
            noLongerShared(changed.user());
            forgetStrangers();
        }
    }

    /** The user left a chat: its members are co-members no more, unless they share another. */
    synchronized void chatLeft(ChatId chat) {
        ChatMembers members = membersByChat.remove(chat);
        if (members != null) {
            members.forEach(this::noLongerShared);
            forgetStrangers();
        }
    }

    /** Someone stopped sharing one chat with the user: unnamed if they share none other. */
    private void noLongerShared(UserId member) {
        if (subscription != null && !detached && !isCoMember(member)) {
            subscription.stopHearingPresenceOf(member);
        }
    }

    /**
     * The user itself, or in one of its chats. Asks each chat rather than keeping a count per
     * co-member: a count would be one more copy of them all, and this is asked only when someone
     * leaves, of as many chats as the user is in.
     */
    private boolean isCoMember(UserId person) {
        if (person.equals(user)) {
            return true;
        }
        for (ChatMembers members : membersByChat.values()) {
            if (members.contains(person)) {
                return true;
            }
        }
        return false;
    }

    /** Everyone in any of the user's chats; someone in several, once per chat. */
    private void forEachCoMember(Consumer<UserId> action) {
        membersByChat.values().forEach(members -> members.forEach(action));
    }

    /** What is folded already about someone who is no co-member any more is not told either. */
    private void forgetStrangers() {
        synchronized (pending) {
            pending.keySet().removeIf(person -> !isCoMember(person));
        }
    }

    /**
     * One chat's members: the set the store listed, which is immutable and shared with every feed
     * that read the same list, and who joined or left since, which are few and this feed's own.
     */
    private static final class ChatMembers {

        private final Set<UserId> listed;
        private final Set<UserId> joined = new HashSet<>(0);
        private final Set<UserId> left = new HashSet<>(0);

        ChatMembers(Set<UserId> listed) {
            this.listed = listed;
        }

        /** The store's list, unchanged since: the same set, no one joined or left. */
        boolean isExactly(Set<UserId> list) {
            return listed == list && joined.isEmpty() && left.isEmpty();
        }

        boolean contains(UserId person) {
            return joined.contains(person) || listed.contains(person) && !left.contains(person);
        }

        /** True if the person was not a member before. */
        boolean add(UserId person) {
            if (contains(person)) {
                return false;
            }
            if (!left.remove(person)) {
                joined.add(person);
            }
            return true;
        }

        /** True if the person was a member before. */
        boolean remove(UserId person) {
            if (joined.remove(person)) {
                return true;
            }
            return listed.contains(person) && left.add(person);
        }

        void forEach(Consumer<UserId> action) {
            for (UserId member : listed) {
                if (!left.contains(member)) {
                    action.accept(member);
                }
            }
            joined.forEach(action);
        }
    }
}
