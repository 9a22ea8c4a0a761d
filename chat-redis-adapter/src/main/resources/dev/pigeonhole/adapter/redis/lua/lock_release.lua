-- Frees the lease only if it is still this owner's: an expired lease granted to someone else
-- is left alone.
-- KEYS: lease
-- ARGV: owner token
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  return { 'OK', 1 }
end
return { 'OK', 0 }
