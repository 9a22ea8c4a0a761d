-- Who is online: one sorted set of users scored by when each was last seen, in epoch millis.
-- Every function takes that set as its one key.

-- Records a sighting and answers when the user was seen before it. Last-seen never moves back.
-- args: user, epoch millis
register('presence_touch', function(keys, args)
  local previous = redis.call('ZSCORE', keys[1], args[1])
  redis.call('ZADD', keys[1], 'GT', args[2], args[1])
  return { 'OK', previous }
end)

-- Users seen at or after a time. args: epoch millis
register('presence_since', function(keys, args)
  return { 'OK', redis.call('ZRANGEBYSCORE', keys[1], args[1], '+inf') }
end, READS)

-- How many users were seen at or after a time, in O(log n): the online gauge's one question.
-- args: epoch millis
register('presence_count', function(keys, args)
  return { 'OK', redis.call('ZCOUNT', keys[1], args[1], '+inf') }
end, READS)

-- Those of the given users seen at or after a time: one ZMSCORE, however many others are online.
-- args: epoch millis, then the users (Java sends at most a thousand per call)
register('presence_among', function(keys, args)
  local since = tonumber(args[1])
  local users = { unpack(args, 2) }
  local scores = redis.call('ZMSCORE', keys[1], unpack(users))
  local seen = {}
  for i, score in ipairs(scores) do
    if score and tonumber(score) >= since then
      seen[#seen + 1] = users[i]
    end
  end
  return { 'OK', seen }
end, READS)

-- Forgets users seen before a time and answers who they were. args: epoch millis
register('presence_prune', function(keys, args)
  local stale = redis.call('ZRANGEBYSCORE', keys[1], '-inf', '(' .. args[1])
  if #stale > 0 then
    redis.call('ZREMRANGEBYSCORE', keys[1], '-inf', '(' .. args[1])
  end
  return { 'OK', stale }
end)
