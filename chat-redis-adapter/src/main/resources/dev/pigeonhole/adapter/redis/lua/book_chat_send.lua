-- chat_send.lua in the book layout: see book.lua.
-- KEYS: the chat's nine keys, lock:chat:<chat>, seen:<sender>
-- ARGV: as chat_send.lua
local sender, message, limits, publishing = posting_arguments()
book.users = { sender }
return answer(function()
  check_unlocked()
  local reply = send(sender, message, limits, publishing)
  mirror_cursors()
  return reply
end)
