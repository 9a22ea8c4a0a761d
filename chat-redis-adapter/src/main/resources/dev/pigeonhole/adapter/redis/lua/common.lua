-- Shared by every script: this text is put in front of each one when it is loaded.
-- Replies are always tables whose first element is a status word, so both clients decode
-- them the same way and Java can map each word to one domain outcome.

-- A member's cursor (the highest id it acknowledged), or nil if it is not a member.
local function cursor_of(members, user)
  local score = redis.call('ZSCORE', members, user)
  if score then
    return tonumber(score)
  end
  return nil
end

-- Why a user has no cursor: the chat does not exist, or the user is not in it.
local function missing(members)
  if redis.call('EXISTS', members) == 0 then
    return { 'NO_CHAT' }
  end
  return { 'NOT_MEMBER' }
end

local function last_id(ids)
  return tonumber(redis.call('GET', ids) or '0')
end

-- The oldest id still held, or last + 1 when the chat holds none.
local function first_available(msgs, last)
  local oldest = redis.call('ZRANGE', msgs, 0, 0, 'WITHSCORES')
  if oldest[2] then
    return tonumber(oldest[2])
  end
  return last + 1
end

-- Drops the messages every member has acknowledged: the lowest cursor bounds them.
local function trim_acknowledged(members, msgs)
  local lowest = redis.call('ZRANGE', members, 0, 0, 'WITHSCORES')
  if lowest[2] then
    redis.call('ZREMRANGEBYSCORE', msgs, '-inf', lowest[2])
  end
end

-- mode: P = PUBLISH (single node), S = SPUBLISH (cluster), SP = both (a cluster where pattern
-- subscribers, which only see classic PUBLISH, must hear chat events too).
local function announce(mode, channel, payload)
  if mode ~= 'S' then
    redis.call('PUBLISH', channel, payload)
  end
  if mode ~= 'P' then
    redis.call('SPUBLISH', channel, payload)
  end
end

-- Appends a message: the next id, stored as the book's JSON, the sender's cursor moved only if
-- it had seen everything before, the retention limit kept, the event announced.
-- index: the sender's index key when it holds cursors (book layout), else nil.
local function append(members, ids, msgs, index, chat, sender, cursor, tail, max_retained,
                      mode, channel, event_head)
  local id = redis.call('INCR', ids)
  local json = '{"id":' .. id .. ',' .. tail
  redis.call('ZADD', msgs, id, json)
  if cursor == id - 1 then
    redis.call('ZADD', members, id, sender)
    if index then
      redis.call('ZADD', index, 'XX', 'GT', id, chat)
    end
  end
  if id > max_retained then
    redis.call('ZREMRANGEBYSCORE', msgs, '-inf', id - max_retained)
  end
  announce(mode, channel, event_head .. json .. '}')
  return id, json
end
