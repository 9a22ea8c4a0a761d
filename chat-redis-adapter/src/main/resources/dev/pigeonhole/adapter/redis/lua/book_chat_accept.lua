-- chat_accept.lua in the book layout: see book.lua.
-- KEYS: the chat's nine keys, lock:chat:<chat>, seen:<invitee>
-- ARGV: as chat_accept.lua
book.users = { ARGV[3] }
return answer(function()
  local reply = accept(ARGV[2], ARGV[3], tonumber(ARGV[4]), { max_members = tonumber(ARGV[5]) })
  mirror_cursors()
  return reply
end)
