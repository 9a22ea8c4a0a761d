-- One chat as a member sees it in a chat list: its cursor, the last id and every member.
-- KEYS: members, ids
-- ARGV: user
local members, ids = KEYS[1], KEYS[2]

local cursor = cursor_of(members, ARGV[1])
if not cursor then
  return missing(members)
end
return { 'OK', cursor, last_id(ids), redis.call('ZRANGE', members, 0, -1) }
