-- One chat as a member sees it in its chat list: summary() in chat.lua.
-- KEYS: the chat's nine keys
-- ARGV: chat, member
return answer(function()
  return summary(ARGV[2])
end)
