package dev.pigeonhole.domain.service;

import dev.pigeonhole.domain.model.ChatId;
import dev.pigeonhole.domain.model.ChatSummary;
import dev.pigeonhole.domain.model.LiveEvent;
import dev.pigeonhole.domain.model.LiveSignal;
import dev.pigeonhole.domain.model.UserId;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The presence one feed owes its client: news of the people its user shares a chat with (and of
 * the user itself), never of anyone else, folded into one diff handed out at most once per
 * {@link #INTERVAL}, however many people come and go.
 *
 * <p>Two threads meet here. The delivery thread {@link #admit admits} events: a stranger's
 * presence is dropped before it takes any room, and a co-member's is folded into the pending diff,
 * each person in their latest state, so the diff never holds more people than the co-members. Only
 * the first change since the last diff queues anything: an empty {@link LiveSignal.Presence}, a
 * wake-up that stands for the diff, so the reader need not poll to notice one. The feed's reader
 * thread keeps the co-members up to date and {@link #takeIfDue takes} the diff when it is due.
 */
final class PresenceFold implements LocalSubscription.Intake {

    static final Duration INTERVAL = Duration.ofSeconds(1);
    private static final LiveSignal.Presence WAKE_UP = new LiveSignal.Presence(Set.of(), Set.of());

    private final UserId user;
    private final InstantSource clock;
    /** The members of each of the user's chats. The reader's alone. */
    private final Map<ChatId, Set<UserId>> membersByChat = new HashMap<>();
    /** How many of the user's chats each co-member shares. The reader's alone. */
    private final Map<UserId, Integer> sharedChats = new HashMap<>();
    /** Who the delivery thread lets through: written by the reader, read by the delivery thread. */
    private final Set<UserId> coMembers = ConcurrentHashMap.newKeySet();
    /** Each co-member's latest state since the last diff, guarded by {@code this}. */
    private final Map<UserId, Boolean> pending = new HashMap<>();
    /** A wake-up was read and its diff is not handed out yet. The reader's alone. */
    private boolean woken;
    /** When the last diff went out; the reader's alone. */
    private Instant lastDiff;

    PresenceFold(UserId user, List<ChatSummary> chats, InstantSource clock) {
        this.user = user;
        this.clock = clock;
        coMembers.add(user);
        chatsAre(chats);
    }

    /** On the delivery thread: never blocks and never calls a store. */
    @Override
    public LiveSignal admit(LiveSignal.Event arriving) {
        if (!(arriving.event() instanceof LiveEvent.PresenceChanged changed)) {
            return arriving;
        }
        if (!coMembers.contains(changed.user())) {
            return null;
        }
        synchronized (this) {
            if (!coMembers.contains(changed.user())) {
                return null; // stopped being one just now
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
        synchronized (this) {
            pending.forEach((who, isOnline) -> (isOnline ? online : offline).add(who));
            pending.clear();
        }
        if (online.isEmpty() && offline.isEmpty()) {
            return Optional.empty();
        }
        lastDiff = clock.instant();
        return Optional.of(new LiveSignal.Presence(online, offline));
    }

    /** What the store says of the user's chats now: the co-members start again from it. */
    void chatsAre(List<ChatSummary> chats) {
        membersByChat.clear();
        sharedChats.clear();
        for (ChatSummary chat : chats) {
            Set<UserId> members = new HashSet<>(chat.members());
            membersByChat.put(chat.chat(), members);
            members.forEach(member -> sharedChats.merge(member, 1, Integer::sum));
        }
        coMembers.addAll(sharedChats.keySet());
        coMembers.removeIf(member -> !member.equals(user) && !sharedChats.containsKey(member));
        forgetStrangers();
    }

    /** Someone else joined or left a chat of the user's; a chat not known here changes nothing. */
    void memberChanged(LiveEvent.MembershipChanged changed) {
        Set<UserId> members = membersByChat.get(changed.chat());
        if (members == null) {
            return;
        }
        if (changed.member()) {
            if (members.add(changed.user()) && sharedChats.merge(changed.user(), 1, Integer::sum) == 1) {
                coMembers.add(changed.user());
            }
        } else if (members.remove(changed.user())) {
            lessShared(changed.user());
            forgetStrangers();
        }
    }

    /** The user left a chat: its members are co-members no more, unless they share another. */
    void chatLeft(ChatId chat) {
        Set<UserId> members = membersByChat.remove(chat);
        if (members != null) {
            members.forEach(this::lessShared);
            forgetStrangers();
        }
    }

    private void lessShared(UserId member) {
        if (sharedChats.merge(member, -1, Integer::sum) <= 0) {
            sharedChats.remove(member);
            if (!member.equals(user)) {
                coMembers.remove(member);
            }
        }
    }

    /** What is folded already about someone who is no co-member any more is not told either. */
    private void forgetStrangers() {
        synchronized (this) {
            pending.keySet().retainAll(coMembers);
        }
    }
}
