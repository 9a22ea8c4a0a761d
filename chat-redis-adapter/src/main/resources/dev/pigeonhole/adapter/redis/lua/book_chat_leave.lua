-- chat_leave.lua in the book layout: see book.lua.
-- KEYS: the chat's nine keys, lock:chat:<chat>, seen:<member>
-- ARGV: as chat_leave.lua
book.users = { ARGV[2] }
return out_already(answer(function()
  local reply = leave(ARGV[2])
  mirror_cursors()
  return reply
end))
