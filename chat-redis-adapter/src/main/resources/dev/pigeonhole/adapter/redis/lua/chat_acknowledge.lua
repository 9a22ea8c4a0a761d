-- Moves a member's cursor forward: acknowledge() in chat.lua.
-- KEYS: the chat's nine keys
-- ARGV: chat, member, up to
return answer(function()
  return acknowledge(ARGV[2], tonumber(ARGV[3]))
end)
