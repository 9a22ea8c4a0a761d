package dev.pigeonhole.domain.port.in.presence;

/**
 * Maintenance: forgets users not seen within the presence window and announces them offline.
 * Safe to call from every instance on a timer; only one at a time does the work.
 */
public interface PrunePresence {

    /** @return how many users went offline; 0 as well when another instance holds the work */
    int pruneStale();
}
