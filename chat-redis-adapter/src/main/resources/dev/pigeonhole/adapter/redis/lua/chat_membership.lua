-- Who is in a chat, for the index sweep: membership() in chat.lua.
-- KEYS: the chat's nine keys
-- ARGV: chat
local reply = answer(function()
  return membership()
end)
if reply[1] == 'NO_CHAT' then
  reply[#reply + 1] = stale_generation()
end
return reply
