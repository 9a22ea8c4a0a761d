-- chat_open.lua in the book layout: see book.lua.
-- KEYS: the chat's nine keys, lock:chat:<chat>, seen:<creator>, seen:<other>...
-- ARGV: as chat_open.lua
local creator, first, limits, publishing = posting_arguments()
local access, others = opening_arguments()
book.users = { creator, unpack(others) }
return answer(function()
  check_unlocked()
  local reply = open(creator, others, access, first, limits, publishing)
  mirror_cursors()
  return reply
end)
