-- Reads a member's view of one chat: its cursor, the last id, the first id still held, and up
-- to a limit of messages after a given id (or after the member's own cursor). Changes nothing.
-- KEYS: members, ids, msgs
-- ARGV: reader, after ('' for the reader's cursor), limit
local members, ids, msgs = KEYS[1], KEYS[2], KEYS[3]

local cursor = cursor_of(members, ARGV[1])
if not cursor then
  return missing(members)
end
local after = cursor
if ARGV[2] ~= '' then
  after = tonumber(ARGV[2])
end
local last = last_id(ids)
local page = redis.call('ZRANGEBYSCORE', msgs, '(' .. after, '+inf', 'LIMIT', 0, ARGV[3])
return { 'OK', cursor, last, first_available(msgs, last), page }
