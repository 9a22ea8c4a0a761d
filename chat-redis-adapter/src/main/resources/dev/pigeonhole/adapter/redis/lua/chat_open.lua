-- Opens a chat with its first message: open() in chat.lua.
-- KEYS: the chat's five keys
-- ARGV: see posting_arguments() in chat.lua, then the others
local creator, first, limits, publishing = posting_arguments()
return answer(function()
  return open(creator, others_argument(), first, limits, publishing)
end)
