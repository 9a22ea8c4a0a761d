-- Sends one message: send() in chat.lua. One round trip, no lock.
-- KEYS: the chat's nine keys
-- ARGV: see posting_arguments() in chat.lua
local sender, message, limits, publishing = posting_arguments()
return answer(function()
  return send(sender, message, limits, publishing)
end)
