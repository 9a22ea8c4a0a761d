-- Lets go of every message up to an id: acknowledge() in mailbox.lua, the LTRIM of Redis in
-- Action 6.5.1 after a read.
-- KEYS: the owner's mailbox, its id counter and its strangers' ids
-- ARGV: upTo
return answer(function()
  return acknowledge(tonumber(ARGV[1]))
end)
