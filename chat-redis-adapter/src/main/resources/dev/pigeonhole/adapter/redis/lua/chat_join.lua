-- Adds a member at the chat's last id; a member already in keeps its cursor.
-- KEYS: members, ids
-- ARGV: user, max members
local members, ids = KEYS[1], KEYS[2]
local user = ARGV[1]

if redis.call('EXISTS', members) == 0 then
  return { 'NO_CHAT' }
end
local cursor = cursor_of(members, user)
if cursor then
  return { 'OK', cursor }
end
if redis.call('ZCARD', members) >= tonumber(ARGV[2]) then
  return { 'FULL' }
end
local last = last_id(ids)
redis.call('ZADD', members, last, user)
return { 'OK', last }
