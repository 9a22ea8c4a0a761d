-- A member's view of one chat, changing nothing: read() in chat.lua.
-- KEYS: the chat's nine keys
-- ARGV: chat, reader, after ('' for the reader's own cursor), limit
local after = nil
if ARGV[3] ~= '' then
  after = tonumber(ARGV[3])
end
return answer(function()
  return read(ARGV[2], after, tonumber(ARGV[4]))
end)
