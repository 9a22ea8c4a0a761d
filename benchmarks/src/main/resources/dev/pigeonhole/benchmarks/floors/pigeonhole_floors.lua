#!lua name=pigeonhole_floors
-- The floor under each of the Redis adapter's functions: what the operation cannot do without,
-- and nothing else. No checks, no refusals, no answer beyond what Redis hands back.
-- FloorsBenchmark loads this library (FUNCTION LOAD REPLACE) and calls floor_<function> with
-- exactly the keys and arguments the adapter gave <function>_v<version>, so the two differ only in
-- what the function does inside.
--
-- Each function's description (which FUNCTION LIST shows, and the report prints beside the
-- numbers) lists its commands; the comment above it says why those and no fewer. The keys and
-- arguments are those the adapter's registrations name (chat_functions.lua's posting_arguments()
-- for a post).

-- A chat's nine keys, as chat.lua's focus() takes them.
local MEMBERS, IDS, MSGS, SENT, WINDOWS, JOINED, BUCKETS = 1, 2, 3, 4, 5, 6, 8

-- The announcement, as common.lua's announce(): PUBLISH on a single node, SPUBLISH on a cluster.
local function announce(mode, channel, payload)
  if mode ~= 'S' then
    redis.call('PUBLISH', channel, payload)
  end
  if mode ~= 'P' then
    redis.call('SPUBLISH', channel, payload)
  end
end

-- A message needs an id (INCR), a place in the chat (ZADD, stored as the book's JSON, which only
-- now can name the id) and its announcement (PUBLISH). Answers the id.
local function post(keys, args)
  local id = redis.call('INCR', keys[IDS])
  redis.call('ZADD', keys[MSGS], id, '{"id":' .. id .. ',' .. args[3])
  announce(args[12], args[13], args[14] .. id .. args[15])
  return id
end

-- A send: the post. With an idempotency key (args[5]), a repeat must be found (HGET), the send
-- remembered (HSET, the value chat_messages.lua stores) and made forgettable once its window closes (ZADD
-- in the windows, which is what lets a later step forget it without a scan); forgetting itself
-- can be put off, so it is not here. With a rate limit (args[11] > 0), the sender's bucket must be
-- read (ZSCORE) to decide and written (ZADD) to remember the take.
local function send(keys, args)
  local sender, at, key_field, interval = args[2], tonumber(args[4]), args[5], tonumber(args[11])
  if key_field ~= '' then
    local earlier = redis.call('HGET', keys[SENT], key_field)
    if earlier then
      return earlier
    end
  end
  local full_again
  if interval ~= 0 then
    full_again = math.max(tonumber(redis.call('ZSCORE', keys[BUCKETS], sender) or '0'), at) + interval
  end
  local id = post(keys, args)
  if key_field ~= '' then
    redis.call('HSET', keys[SENT], key_field, id .. ':' .. at .. ':' .. args[7])
    redis.call('ZADD', keys[WINDOWS], at + tonumber(args[6]), key_field)
  end
  if interval ~= 0 then
    redis.call('ZADD', keys[BUCKETS], full_again, sender)
  end
  return id
end

-- An open: its members, creator (args[2]) and others (args[17] on), in one ZADD at cursor 0 (a
-- join point of 0 is what a missing one reads as, so joined is not needed), then its first post.
local function open(keys, args)
  local command = { 'ZADD', keys[MEMBERS], 0, args[2] }
  for i = 17, #args do
    command[#command + 1] = 0
    command[#command + 1] = args[i]
  end
  redis.call(unpack(command))
  return post(keys, args)
end

-- A join (args: chat, by, user): the new member starts at the last id, which must be read (GET),
-- as its cursor (ZADD members) and its join point (ZADD joined), below which it may not read.
local function join(keys, args)
  local last = redis.call('GET', keys[IDS]) or 0
  redis.call('ZADD', keys[MEMBERS], last, args[3])
  redis.call('ZADD', keys[JOINED], last, args[3])
  return last
end

-- A leave (args: chat, member): out of members and joined.
local function leave(keys, args)
  redis.call('ZREM', keys[MEMBERS], args[2])
  return redis.call('ZREM', keys[JOINED], args[2])
end

-- Pending (args: member, limit, then each chat's nine keys): per chat, the member's cursor
-- (ZSCORE) and the page after it (ZRANGEBYSCORE with LIMIT).
local function pending(keys, args)
  local member, limit, pages = args[1], tonumber(args[2]), {}
  for at = 3, #args, 9 do
    local cursor = redis.call('ZSCORE', args[at + MEMBERS - 1], member)
    if cursor then
      pages[#pages + 1] = redis.call('ZRANGEBYSCORE', args[at + MSGS - 1], '(' .. cursor, '+inf', 'LIMIT', 0, limit)
    end
  end
  return pages
end

-- A batch acknowledge (args: MOVE, member, seen, then per chat its id, up to and nine keys): per
-- chat, the cursor written (ZADD) and what every member has seen dropped (ZREMRANGEBYSCORE),
-- whose bound is the lowest cursor, which must be read (ZRANGE 0 0). A single node sends MOVE
-- only; CHECK, a cluster's first pass, is answered without a command.
local function acknowledge(keys, args)
  if args[1] == 'CHECK' then
    return 0
  end
  local member = args[2]
  for at = 4, #args, 11 do
    local members, msgs = args[at + 2 + MEMBERS - 1], args[at + 2 + MSGS - 1]
    redis.call('ZADD', members, args[at + 1], member)
    local lowest = redis.call('ZRANGE', members, 0, 0, 'WITHSCORES')
    redis.call('ZREMRANGEBYSCORE', msgs, '-inf', lowest[2])
  end
  return 1
end

-- The user's index (KEYS[1]; args: chat, generation): listing a chat is one ZADD, dropping it one
-- ZREM, reading the index one ZRANGE.
local function index_add(keys, args)
  return redis.call('ZADD', keys[1], args[2], args[1])
end

local function index_remove(keys, args)
  return redis.call('ZREM', keys[1], args[1])
end

local function index_list(keys)
  return redis.call('ZRANGE', keys[1], 0, -1)
end

-- A mailbox's keys: messages (a LIST), ids, strangers. A delivery (args: tail, kind, capacity,
-- share, mode, channel, event before and after the id) needs an id (INCR), its place (RPUSH) and
-- its announcement (PUBLISH).
local function deliver(keys, args)
  local id = redis.call('INCR', keys[2])
  redis.call('RPUSH', keys[1], '{"id":' .. id .. ',' .. args[1])
  announce(args[5], args[6], args[7] .. id .. args[8])
  return id
end

-- A read (args: max): the oldest max messages (LRANGE).
local function read(keys, args)
  return redis.call('LRANGE', keys[1], 0, tonumber(args[1]) - 1)
end

-- An acknowledgement (args: up to): the messages up to it dropped (LTRIM). How many that is only
-- the head's id says, which must be read (LINDEX 0).
local function mailbox_acknowledge(keys, args)
  local head = redis.call('LINDEX', keys[1], 0)
  if head then
    local drop = tonumber(args[1]) - tonumber(string.match(head, '^{"id":(%d+),')) + 1
    if drop > 0 then
      redis.call('LTRIM', keys[1], drop, -1)
    end
  end
  return 1
end

-- A sighting (KEYS[1]: presence; args: user, millis): recorded without moving back (ZADD GT). The
-- port answers when the user was seen before, which only a read gives (ZSCORE): ZADD cannot.
local function touch(keys, args)
  local previous = redis.call('ZSCORE', keys[1], args[1])
  redis.call('ZADD', keys[1], 'GT', args[2], args[1])
  return previous
end

-- A quota take (KEYS[1]: the bucket; args: burst, interval): the bucket read (GET) and written
-- with its expiry (SET PXAT); the time it is measured against must come from Redis (TIME), which
-- every server sharing the bucket agrees on.
local function take(keys, args)
  local time = redis.call('TIME')
  local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
  local full_at = math.max(tonumber(redis.call('GET', keys[1]) or '0'), now) + tonumber(args[2])
  redis.call('SET', keys[1], full_at, 'PXAT', full_at)
  return full_at
end

local function floor(name, callback, description, read_only)
  redis.register_function {
    function_name = 'floor_' .. name,
    callback = callback,
    description = description,
    flags = read_only and { 'no-writes' } or {},
  }
end

floor('chat_send', send, 'INCR, ZADD, PUBLISH; with a key HGET, HSET, ZADD; with a rate ZSCORE, ZADD')
floor('chat_open', open, 'ZADD (every member), INCR, ZADD, PUBLISH')
floor('chat_join', join, 'GET, ZADD members, ZADD joined')
floor('chat_leave', leave, 'ZREM members, ZREM joined')
floor('chats_pending', pending, 'per chat: ZSCORE, ZRANGEBYSCORE … LIMIT', true)
floor('chats_acknowledge', acknowledge, 'per chat: ZADD, ZRANGE 0 0, ZREMRANGEBYSCORE')
floor('index_add', index_add, 'ZADD')
floor('index_remove', index_remove, 'ZREM')
floor('index_list', index_list, 'ZRANGE', true)
floor('mailbox_deliver', deliver, 'INCR, RPUSH, PUBLISH')
floor('mailbox_read', read, 'LRANGE', true)
floor('mailbox_acknowledge', mailbox_acknowledge, 'LINDEX, LTRIM')
floor('presence_touch', touch, 'ZSCORE, ZADD GT')
floor('quota_take', take, 'TIME, GET, SET PXAT')
