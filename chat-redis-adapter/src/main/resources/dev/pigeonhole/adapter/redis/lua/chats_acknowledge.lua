#!lua flags=allow-cross-slot-keys
-- Acknowledges in several of a member's chats as one step: acknowledge_all() in chat.lua. On a
-- single node it runs once for every chat of the batch. On a cluster, where a script reaches only
-- the slots of its own node (the flag above), once per node, first only checking (CHECK) every
-- node's chats and then moving (MOVE) them.
-- KEYS: the first chat's nine keys, which route the call
-- ARGV: CHECK or MOVE, member, the member's seen:<member> in the book layout ('' in the tagged
--       one), then for each chat: its id, how far to acknowledge, its nine keys
local member, seen = ARGV[2], ARGV[3]
local RECORD = 2 + CHAT_KEYS
local batch = {}
for at = 4, #ARGV, RECORD do
  batch[#batch + 1] = { chat = ARGV[at], up_to = tonumber(ARGV[at + 1]), at = at + 2 }
end
return answer(function()
  if ARGV[1] == 'CHECK' then
    check_acknowledge_all(member, batch, ARGV)
    return { 'ACKNOWLEDGED' }
  end
  local cursors = acknowledge_all(member, batch, ARGV)
  -- The book's fetch reads each cursor from seen:<member>, so that follows them in this step.
  if seen ~= '' then
    for n, cursor in ipairs(cursors) do
      redis.call('ZADD', seen, cursor, batch[n].chat)
    end
  end
  return { 'ACKNOWLEDGED' }
end)
