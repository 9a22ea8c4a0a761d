package dev.pigeonhole.domain.port.in;

import dev.pigeonhole.domain.model.UserId;

/**
 * Opens a live feed for a connected client: events of every chat the user is in, and presence
 * changes. Subscribed before this returns, so a client that subscribes and then pulls pending
 * messages can miss nothing between the two.
 */
public interface SubscribeToLiveEvents {

    LiveFeed subscribe(UserId user);
}
