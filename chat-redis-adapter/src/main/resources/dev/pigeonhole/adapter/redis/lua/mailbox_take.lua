-- Removes and returns up to max of the oldest messages, in one step, so two takers never get
-- the same message and none falls between them.
-- KEYS: mailbox
-- ARGV: max
local taken = redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1)
if #taken > 0 then
  redis.call('LTRIM', KEYS[1], #taken, -1)
end
return { 'OK', taken }
