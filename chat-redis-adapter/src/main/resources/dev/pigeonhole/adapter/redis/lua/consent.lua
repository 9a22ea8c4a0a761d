-- A user's consent, kept as its JSON and a version in one hash: the domain applies every rule of
-- consent in Java, and Redis only keeps it, over a compare and swap (Consents.replace).

-- A user's consent as kept: its version (nil before the first write) and its JSON.
-- keys: the user's consent
register('consent_read', function(keys)
  return { 'KEPT', redis.call('HMGET', keys[1], 'version', 'consent') }
end, READS)

-- Keeps a user's consent over the version it was read at, and only then.
-- keys: the user's consent; args: the version read (0 for none kept), the next consent's JSON
-- Answers REPLACED with 1, or with 0 if another write came first.
register('consent_replace', function(keys, args)
  local kept = tonumber(redis.call('HGET', keys[1], 'version') or '0')
  if kept ~= tonumber(args[1]) then
    return { 'REPLACED', 0 }
  end
  redis.call('HSET', keys[1], 'version', string.format('%d', kept + 1), 'consent', args[2])
  return { 'REPLACED', 1 }
end)
