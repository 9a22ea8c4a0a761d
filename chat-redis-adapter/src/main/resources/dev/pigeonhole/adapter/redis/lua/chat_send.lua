-- Sends one message: membership check, next id, store, trim, publish. One round trip, no lock.
-- KEYS: members, ids, msgs [, book send lock [, sender's index]]
-- ARGV: sender, tail, max retained, publish mode, channel, event head, chat
local members, ids, msgs = KEYS[1], KEYS[2], KEYS[3]
local sender = ARGV[1]

local cursor = cursor_of(members, sender)
if not cursor then
  return missing(members)
end
-- A book client holds this lock between its INCR and its ZADD; sending then could make its
-- message land after ours with a lower id.
if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then
  return { 'LOCKED' }
end
local id = append(members, ids, msgs, KEYS[5], ARGV[7], sender, cursor, ARGV[2], tonumber(ARGV[3]),
                  ARGV[4], ARGV[5], ARGV[6])
return { 'OK', id }
