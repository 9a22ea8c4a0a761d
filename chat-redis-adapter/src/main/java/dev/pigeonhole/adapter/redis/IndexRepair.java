package dev.pigeonhole.adapter.redis;

/**
 * What one mending of users' chat indexes changed.
 *
 * @param relisted chats put back in the index of a member that lacked them
 * @param dropped  chats taken out of the index of a user no longer in them
 */
public record IndexRepair(int relisted, int dropped) {
}
