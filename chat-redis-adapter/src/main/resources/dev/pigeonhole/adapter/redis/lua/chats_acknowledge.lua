-- Acknowledges in several of a member's chats as one step: acknowledge_all() in chat.lua. On a
-- single node it runs once for every chat of the batch; on a cluster, where one script reaches
-- one slot, once per chat, first only checking (CHECK) and then moving (MOVE).
-- KEYS: the nine keys of each chat in turn, then, in the book layout, the member's seen:<member>
-- ARGV: CHECK or MOVE, member, then each chat's id and up to, in the order of KEYS
local member = ARGV[2]
local chats, up_tos = {}, {}
for i = 3, #ARGV, 2 do
  chats[#chats + 1] = ARGV[i]
  up_tos[#up_tos + 1] = tonumber(ARGV[i + 1])
end
-- The book's fetch reads each cursor from seen:<member>, so that follows them in this step.
local seen = KEYS[#chats * CHAT_KEYS + 1]
return answer(function()
  if ARGV[1] == 'CHECK' then
    check_acknowledge_all(member, up_tos)
    return { 'ACKNOWLEDGED' }
  end
  local cursors = acknowledge_all(member, up_tos)
  if seen then
    for n, cursor in ipairs(cursors) do
      redis.call('ZADD', seen, cursor, chats[n])
    end
  end
  return { 'ACKNOWLEDGED' }
end)
