-- Sends one message: membership check, next id, store, trim, publish. One round trip, no lock.
-- With an idempotency key seen before, returns the message stored then and does nothing else.
-- KEYS: members, ids, msgs, sent under key, key windows [, book send lock [, sender's index]]
-- ARGV: sender, tail, max retained, publish mode, channel, event head, chat,
--       key field ('' for none), now in epoch millis, key window in millis
local members, ids, msgs, sent, windows = KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5]
local sender, key = ARGV[1], ARGV[8]

local cursor = cursor_of(members, sender)
if not cursor then
  return missing(members)
end
local now = tonumber(ARGV[9])
if key ~= '' then
  -- Forget a bounded number of closed windows per send, so no send pays for a long backlog.
  local closed = redis.call('ZRANGEBYSCORE', windows, '-inf', now, 'LIMIT', 0, 100)
  if #closed > 0 then
    redis.call('HDEL', sent, unpack(closed))
    redis.call('ZREM', windows, unpack(closed))
  end
  local open_until = redis.call('ZSCORE', windows, key)
  if open_until and tonumber(open_until) > now then
    return { 'EARLIER', redis.call('HGET', sent, key) }
  end
end
-- A book client holds this lock between its INCR and its ZADD; sending then could make its
-- message land after ours with a lower id.
if KEYS[6] and redis.call('EXISTS', KEYS[6]) == 1 then
  return { 'LOCKED' }
end
local id, json = append(members, ids, msgs, KEYS[7], ARGV[7], sender, cursor, ARGV[2], tonumber(ARGV[3]),
                        ARGV[4], ARGV[5], ARGV[6])
if key ~= '' then
  redis.call('HSET', sent, key, json)
  redis.call('ZADD', windows, now + tonumber(ARGV[10]), key)
end
return { 'OK', id }
