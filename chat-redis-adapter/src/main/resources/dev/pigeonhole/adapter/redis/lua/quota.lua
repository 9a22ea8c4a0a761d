-- One token from a user's bucket for one kind of write: Quotas.take, with RateLimit.take from
-- bucket.lua on Redis's own clock, so every server agrees whatever its clock says. The key
-- expires when the bucket is full again, which is the same as forgetting it.
-- keys: the bucket; args: burst, interval (ms)
register('quota_take', function(keys, args)
  local burst, interval = tonumber(args[1]), tonumber(args[2])
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local admitted, full_at, retry_after = take(tonumber(redis.call('GET', keys[1]) or '0'), now, burst, interval)
  if not admitted then
    return { 'REFUSED', full_at, retry_after }
  end
  if interval > 0 then
    redis.call('SET', keys[1], full_at, 'PXAT', full_at)
  end
  return { 'ADMITTED', full_at, 0 }
end)
