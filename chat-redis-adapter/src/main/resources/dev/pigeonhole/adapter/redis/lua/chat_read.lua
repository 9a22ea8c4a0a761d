-- A member's page of one chat's history, changing nothing: read() in chat.lua.
-- KEYS: the chat's nine keys
-- ARGV: chat, reader, after, limit
return answer(function()
  return read(ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]))
end)
