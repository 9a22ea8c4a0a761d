-- Adds a member: join() in chat.lua.
-- KEYS: the chat's five keys
-- ARGV: chat, user, max members
return answer(function()
  return join(ARGV[2], { max_members = tonumber(ARGV[3]) })
end)
