-- The steps of the Chat aggregate about ids and messages, after chat.lua's about members (see
-- there): the ids handed out and the messages still held (MessageIds), the sends remembered
-- under idempotency keys (KeyedSends) and the senders' buckets (SendBuckets). chat_operations.lua
-- builds the operations from these and chat.lua's steps.

-- KeyedSends.FORGET_AT_MOST: how many keys whose window closed one send forgets at most.
local FORGET_AT_MOST = 100

local function last_id()
  return tonumber(redis.call('GET', chat.ids) or '0')
end

local function check_up_to(up_to)
  local last = last_id()
  if up_to > last then
    refuse('BEYOND_LAST', up_to, last)
  end
end

-- The oldest id still held, or last + 1 when the chat holds none: Chat.history().
local function first_available_id(last)
  local oldest = redis.call('ZRANGE', chat.msgs, 0, 0, 'WITHSCORES')
  if oldest[2] then
    return tonumber(oldest[2])
  end
  return last + 1
end

local function next_id()
  return redis.call('INCR', chat.ids)
end

-- Stored as the book's JSON: Java wrote everything after the id, which only this step knows.
local function store_message(id, tail)
  redis.call('ZADD', chat.msgs, id, '{"id":' .. id .. ',' .. tail)
end

-- Keeps at most the retention limit: the oldest messages go, read or not.
local function trim_retained(last, max_retained)
  if last > max_retained then
    redis.call('ZREMRANGEBYSCORE', chat.msgs, '-inf', last - max_retained)
  end
end

-- Drops what every member has acknowledged: the lowest cursor bounds it.
local function trim_acknowledged()
  local lowest = redis.call('ZRANGE', chat.members, 0, 0, 'WITHSCORES')
  redis.call('ZREMRANGEBYSCORE', chat.msgs, '-inf', lowest[2])
end

-- KeyedSends: what a sender sent under a key (its id, time and body digest, never the body),
-- while the key's window is open; windows orders them by the time each closes.
local function forget_closed_keys(now)
  local closed = redis.call('ZRANGEBYSCORE', chat.windows, '-inf', now, 'LIMIT', 0, FORGET_AT_MOST)
  if #closed > 0 then
    redis.call('HDEL', chat.sent, unpack(closed))
    redis.call('ZREM', chat.windows, unpack(closed))
  end
end

local function sent_before(key_field, now)
  local open_until = redis.call('ZSCORE', chat.windows, key_field)
  if open_until and tonumber(open_until) > now then
    return redis.call('HGET', chat.sent, key_field)
  end
  return nil
end

-- Remembers "id:time:digest", then forgets the soonest to close while more than at_most are kept.
local function remember(key_field, id, at, digest, forget_at, at_most)
  redis.call('HSET', chat.sent, key_field, id .. ':' .. at .. ':' .. digest)
  redis.call('ZADD', chat.windows, forget_at, key_field)
  local excess = redis.call('ZCARD', chat.windows) - at_most
  if excess > 0 then
    local soonest = redis.call('ZPOPMIN', chat.windows, excess)
    for i = 1, #soonest, 2 do
      redis.call('HDEL', chat.sent, soonest[i])
    end
  end
end

-- SendBuckets.takeSendToken: RateLimit.take on the sender's bucket in this chat, at the send's time,
-- after forgetting the buckets full by then (SendBuckets.forgetFull). buckets: sender -> full at.
local function take_send_token(sender, rate, now)
  if rate.interval == 0 then
    return
  end
  redis.call('ZREMRANGEBYSCORE', chat.buckets, '-inf', now)
  local full_at = tonumber(redis.call('ZSCORE', chat.buckets, sender) or '0')
  local admitted, full_again, retry_after = take(full_at, now, rate.burst, rate.interval)
  if not admitted then
    refuse('RATE_LIMITED', retry_after)
  end
  redis.call('ZADD', chat.buckets, full_again, sender)
end
