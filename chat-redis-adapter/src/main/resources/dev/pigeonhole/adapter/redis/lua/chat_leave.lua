-- Removes a member; the last one out deletes the chat: leave() in chat.lua.
-- KEYS: the chat's nine keys
-- ARGV: chat, member
return out_already(answer(function()
  return leave(ARGV[2])
end))
