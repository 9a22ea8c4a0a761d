-- chat_join.lua in the book layout: see book.lua.
-- KEYS: the chat's five keys, lock:chat:<chat>, seen:<user>
-- ARGV: as chat_join.lua
book.users = { ARGV[2] }
return answer(function()
  local reply = join(ARGV[2], { max_members = tonumber(ARGV[3]) })
  mirror_cursors()
  return reply
end)
