-- Forgets users seen before a time and answers who they were.
-- KEYS: presence
-- ARGV: epoch millis
local stale = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
if #stale > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[1])
end
return { 'OK', stale }
