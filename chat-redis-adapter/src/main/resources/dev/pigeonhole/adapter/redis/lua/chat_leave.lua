-- Removes a member. The last one out deletes the chat's keys, all in this one step, so no
-- send, join or acknowledge can run in between and find half a chat.
-- KEYS: members, ids, msgs, sent under key, key windows
-- ARGV: user
local members, msgs = KEYS[1], KEYS[3]

if not cursor_of(members, ARGV[1]) then
  return missing(members)
end
redis.call('ZREM', members, ARGV[1])
if redis.call('ZCARD', members) == 0 then
  redis.call('DEL', KEYS[2], msgs, KEYS[4], KEYS[5])
  return { 'OK', 'DELETED' }
end
-- The leaver may have been the one holding the oldest messages back.
trim_acknowledged(members, msgs)
return { 'OK', 'LEFT' }
