-- Moves a member's cursor forward (never back), then trims what every member has seen.
-- A user who is not a member gets an answer, never a cursor: a late acknowledge cannot re-add.
-- KEYS: members, ids, msgs [, user's index]
-- ARGV: user, up to, chat
local members, ids, msgs = KEYS[1], KEYS[2], KEYS[3]
local user, up_to = ARGV[1], tonumber(ARGV[2])

local cursor = cursor_of(members, user)
if not cursor then
  return missing(members)
end
local last = last_id(ids)
if up_to > last then
  return { 'BEYOND_LAST', last }
end
if up_to > cursor then
  redis.call('ZADD', members, up_to, user)
  if KEYS[4] then
    redis.call('ZADD', KEYS[4], 'XX', 'GT', up_to, ARGV[3])
  end
  trim_acknowledged(members, msgs)
end
return { 'OK' }
