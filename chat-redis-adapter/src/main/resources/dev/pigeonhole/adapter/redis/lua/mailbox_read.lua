-- Reads the oldest messages, removing nothing: read() in mailbox.lua.
-- KEYS: the owner's mailbox, its id counter and its strangers' ids
-- ARGV: max
return answer(function()
  return read(tonumber(ARGV[1]))
end)
