-- Brings in the invitee of an inviter still in the chat: accept() in chat.lua.
-- KEYS: the chat's nine keys
-- ARGV: chat, inviter, invitee, join point, max members
return answer(function()
  return accept(ARGV[2], ARGV[3], tonumber(ARGV[4]), { max_members = tonumber(ARGV[5]) })
end)
