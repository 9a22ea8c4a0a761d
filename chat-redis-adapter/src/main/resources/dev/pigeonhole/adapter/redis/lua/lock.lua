-- A lease with a fencing token: the chat lock of the book's layout and of the index sweep.

-- Grants the lease if no one holds it, with a fencing token larger than any before.
-- keys: lease, fence; args: owner token, lease millis
register('lock_acquire', function(keys, args)
  if redis.call('SET', keys[1], args[1], 'NX', 'PX', args[2]) then
    return { 'OK', redis.call('INCR', keys[2]) }
  end
  return { 'BUSY' }
end)

-- Frees the lease only if it is still this owner's: an expired lease granted to someone else
-- is left alone. keys: lease; args: owner token
register('lock_release', function(keys, args)
  if redis.call('GET', keys[1]) == args[1] then
    redis.call('DEL', keys[1])
    return { 'OK', 1 }
  end
  return { 'OK', 0 }
end)
