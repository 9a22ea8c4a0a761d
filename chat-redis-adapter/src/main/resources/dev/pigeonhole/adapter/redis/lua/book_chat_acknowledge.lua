-- chat_acknowledge.lua in the book layout: see book.lua.
-- KEYS: the chat's nine keys, lock:chat:<chat>, seen:<member>
-- ARGV: as chat_acknowledge.lua
book.users = { ARGV[2] }
return answer(function()
  local reply = acknowledge(ARGV[2], tonumber(ARGV[3]))
  mirror_cursors()
  return reply
end)
