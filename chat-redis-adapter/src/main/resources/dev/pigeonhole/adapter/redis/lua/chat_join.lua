-- Brings someone in: join() in chat.lua.
-- KEYS: the chat's nine keys
-- ARGV: chat, by, user, max members
return answer(function()
  return join(ARGV[2], ARGV[3], { max_members = tonumber(ARGV[4]) })
end)
