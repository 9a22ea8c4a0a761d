-- Drops a chat from a user's index, unless a change newer than this one listed it again: a
-- leave's late remove must not undo the join that followed it.
-- KEYS: user's index
-- ARGV: chat, generation of the change that took the user out
-- Answers OK with 1 when it dropped the chat.
local listed = redis.call('ZSCORE', KEYS[1], ARGV[1])
if listed and tonumber(listed) <= tonumber(ARGV[2]) then
  redis.call('ZREM', KEYS[1], ARGV[1])
  return { 'OK', 1 }
end
return { 'OK', 0 }
