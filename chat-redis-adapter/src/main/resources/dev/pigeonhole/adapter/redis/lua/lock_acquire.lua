-- Grants the lease if no one holds it, with a fencing token larger than any before.
-- KEYS: lease, fence
-- ARGV: owner token, lease millis
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return { 'OK', redis.call('INCR', KEYS[2]) }
end
return { 'BUSY' }
