-- Appends to a mailbox unless it is full.
-- KEYS: mailbox
-- ARGV: message JSON, capacity
if redis.call('LLEN', KEYS[1]) >= tonumber(ARGV[2]) then
  return { 'FULL' }
end
return { 'OK', redis.call('RPUSH', KEYS[1], ARGV[1]) }
