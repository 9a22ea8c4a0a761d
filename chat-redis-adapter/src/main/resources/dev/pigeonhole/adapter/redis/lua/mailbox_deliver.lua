-- Appends to a mailbox under its next id unless it is full, and announces the message on the
-- owner's channel in the same step, so a delivery is one round trip and one owner's deliveries go
-- out in id order. A refused delivery takes no id, so the ids a mailbox holds run without a gap.
-- KEYS: mailbox, mailbox id counter (the owner's hash tag: one slot, with the owner's channel)
-- ARGV: message tail (its JSON after {"id":N,), capacity, publish mode, owner's channel, event head
if redis.call('LLEN', KEYS[1]) >= tonumber(ARGV[2]) then
  return { 'FULL' }
end
local id = redis.call('INCR', KEYS[2])
local json = '{"id":' .. id .. ',' .. ARGV[1]
local depth = redis.call('RPUSH', KEYS[1], json)
announce(ARGV[3], ARGV[4], ARGV[5] .. json .. '}')
return { 'DELIVERED', id, depth }
