package dev.pigeonhole.domain.port.in.live;

import dev.pigeonhole.domain.model.UserId;

/**
 * Opens a live feed for a connected client: events of every chat the user is in, and presence
 * changes. Subscribed before this returns, and caught up from pending only after, so nothing falls
 * between the catch-up and the live events.
 */
public interface SubscribeToLiveEvents {

    /** A feed for a client that holds nothing yet: everything pending comes first. */
    default LiveFeed subscribe(UserId user) {
        return subscribe(user, LiveFeed.Received.NOTHING);
    }

    /** A feed that resumes an earlier one: what {@code received} names is not sent again. */
    LiveFeed subscribe(UserId user, LiveFeed.Received received);
}
