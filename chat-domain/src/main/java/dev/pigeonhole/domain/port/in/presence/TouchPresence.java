package dev.pigeonhole.domain.port.in.presence;

import dev.pigeonhole.domain.model.UserId;

/**
 * Records a sign of life from a user, now. Coming back from offline is announced on the presence
 * channel.
 */
public interface TouchPresence {

    void touch(UserId user);
}
