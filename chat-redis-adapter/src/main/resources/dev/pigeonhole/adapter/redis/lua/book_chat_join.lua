-- chat_join.lua in the book layout: see book.lua.
-- KEYS: the chat's nine keys, lock:chat:<chat>, seen:<user>
-- ARGV: as chat_join.lua
book.users = { ARGV[3] }
return answer(function()
  local reply = join(ARGV[2], ARGV[3], { max_members = tonumber(ARGV[4]) })
  mirror_cursors()
  return reply
end)
