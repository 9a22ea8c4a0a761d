-- Opens a chat with its first message: open() in chat.lua.
-- KEYS: the chat's nine keys
-- ARGV: see posting_arguments() and opening_arguments() in chat.lua
local creator, first, limits, publishing = posting_arguments()
local access, others = opening_arguments()
return answer(function()
  return open(creator, others, access, first, limits, publishing)
end)
