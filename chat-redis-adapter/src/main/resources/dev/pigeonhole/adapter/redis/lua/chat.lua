-- The Chat aggregate (dev.pigeonhole.domain.model.chat.Chat) in Lua, for the one place Java cannot
-- run: inside Redis's atomic step. Each function is the Java method or step of the same name,
-- with the same checks in the same order; a refusal here is an exception there. The contract
-- suite runs random operations against Chat and against these functions side by side, so the
-- two cannot drift apart unnoticed. Like Chat.java it stays one file, since it is one aggregate;
-- what Redis calls of it, and with what keys and arguments, is in chat_functions.lua.
--
-- A chat's nine keys share one hash tag, so one cluster slot. joined holds each member's join
-- point; open exists only for a chat open to all; buckets holds the send buckets of those who
-- sent lately (RateLimit.take, from bucket.lua); generation is the membership generation.
-- Every step works on the chat that focus() last pointed it at.
local chat = {}

-- Points the steps at one chat's nine keys, from position at of names, in this order. A function
-- about one chat is given them as its keys; a function about several names each chat's keys in
-- its arguments (a call's declared keys, which route it, must share one slot, and the flag
-- allow-cross-slot-keys lets a function reach the other slots of its node).
local CHAT_KEYS = 9
local function focus(names, at)
  chat.members, chat.ids, chat.msgs = names[at], names[at + 1], names[at + 2]
  chat.sent, chat.windows, chat.joined = names[at + 3], names[at + 4], names[at + 5]
  chat.open, chat.buckets, chat.generation = names[at + 6], names[at + 7], names[at + 8]
end

-- KeyedSends.FORGET_AT_MOST: how many keys whose window closed one send forgets at most.
local FORGET_AT_MOST = 100

-- ------------------------------------------------------------------ the steps

local function check_exists()
  if redis.call('EXISTS', chat.members) == 0 then
    refuse('NO_CHAT')
  end
end

-- Only an open chat admits to a non-member that it exists.
local function check_visible_to(user)
  if redis.call('EXISTS', chat.open) == 0 and not redis.call('ZSCORE', chat.members, user) then
    refuse('NO_CHAT')
  end
end

-- What check_member refuses a user outside the chat with, as a reply. To anyone outside it a
-- private chat answers as one that does not exist.
local function outsider(user)
  if redis.call('EXISTS', chat.members) == 0 or redis.call('EXISTS', chat.open) == 0 then
    return { 'NO_CHAT' }
  end
  return { 'NOT_MEMBER', user }
end

-- The member's cursor: how every operation but join checks who is asking.
local function check_member(user)
  local cursor = redis.call('ZSCORE', chat.members, user)
  if not cursor then
    refuse(unpack(outsider(user)))
  end
  return tonumber(cursor)
end

-- A member brings anyone in; anyone brings itself into an open chat.
local function check_may_bring_in(by, user)
  if by ~= user then
    check_member(by)
    return
  end
  check_exists()
  check_visible_to(user)
end

-- The last id when the member came in. A member a book client added knows no join point: 0.
local function join_point(member)
  return tonumber(redis.call('ZSCORE', chat.joined, member) or '0')
end

local function add_member(user, at)
  redis.call('ZADD', chat.joined, at, user)
  redis.call('ZADD', chat.members, at, user)
end

local function check_member_limit(count, max_members)
  if count > max_members then
    refuse('TOO_MANY_MEMBERS', max_members, count)
  end
end

local function check_room(max_members)
  if redis.call('ZCARD', chat.members) >= max_members then
    refuse('CHAT_FULL', max_members)
  end
end

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

local function move_sender_cursor(sender, cursor, id)
  if cursor == id - 1 then
    redis.call('ZADD', chat.members, id, sender)
    return 1
  end
  return 0
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

-- Chat.takeSendToken: RateLimit.take on the sender's bucket in this chat, at the send's time,
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

-- The membership generation: not the aggregate's, but the user's index's (another slot, so
-- updated after this script). Every open, join and leave answers with a larger one, and the
-- index keeps it as the chat's score, so a late update cannot undo a newer one. It starts from
-- the server's clock, in microseconds, so it also grows across a chat deleted and opened again.
local function clock()
  local now = redis.call('TIME')
  return tonumber(now[1]) * 1000000 + tonumber(now[2])
end

local function generation()
  return tonumber(redis.call('GET', chat.generation) or '0')
end

local function next_generation()
  local following = math.max(clock(), generation() + 1)
  redis.call('SET', chat.generation, string.format('%.0f', following))
  return following
end

-- Asked of a chat the user is not in (a leave tried again, a sweep): whatever the user's index
-- still lists of it was written at this generation or before, so it is stale.
local function stale_generation()
  if redis.call('EXISTS', chat.members) == 1 then
    return generation()
  end
  return clock() - 1
end

-- ------------------------------------------------------------------ the operations

-- Chat.send. message: { tail, at, key_field ('' for none), key_window, digest };
-- limits: { max_retained, rate = { burst, interval } }; publishing: { mode, channel, before_id,
-- after_id }, the announcement as the live event codec writes it, but for the id, which only this
-- step knows.
local function send(sender, message, limits, publishing)
  local cursor = check_member(sender)
  if message.key_field ~= '' then
    forget_closed_keys(message.at)
    local earlier = sent_before(message.key_field, message.at)
    if earlier then
      -- Written again unchanged so that this call, too, is replicated: a caller that waits for
      -- replicas after it (WAIT counts its own connection's writes) then learns they hold the
      -- earlier send as well, since replicas apply writes in order.
      redis.call('HSET', chat.sent, message.key_field, earlier)
      return { 'REPEAT', earlier }
    end
  end
  take_send_token(sender, limits.rate, message.at)
  local id = next_id()
  store_message(id, message.tail)
  local moved = move_sender_cursor(sender, cursor, id)
  trim_retained(id, limits.max_retained)
  if message.key_field ~= '' then
    remember(message.key_field, id, message.at, message.digest, message.at + message.key_window,
      limits.max_retained)
  end
  announce(publishing.mode, publishing.channel, publishing.before_id .. id .. publishing.after_id)
  return { 'SENT', id, moved }
end

-- Chat.open: everyone joins at 0, then the creator's first message, as any send.
-- access: 'OPEN' or 'PRIVATE'.
local function open(creator, others, access, first, limits, publishing)
  local everyone, count = { [creator] = true }, 1
  for _, other in ipairs(others) do
    if not everyone[other] then
      everyone[other] = true
      count = count + 1
    end
  end
  check_member_limit(count, limits.max_members)
  if redis.call('EXISTS', chat.members) == 1 then
    refuse('EXISTS')
  end
  -- A deleted chat left nothing, but a book client may have sent to a chat without members:
  -- a new chat starts at id 1 whatever was there.
  redis.call('DEL', chat.ids, chat.msgs, chat.sent, chat.windows, chat.joined, chat.open, chat.buckets)
  if access == 'OPEN' then
    redis.call('SET', chat.open, 1)
  end
  for member in pairs(everyone) do
    add_member(member, 0)
  end
  local sent = send(creator, first, limits, publishing)
  local listed = {}
  for member in pairs(everyone) do
    listed[#listed + 1] = member
  end
  return { 'OPENED', sent[2], listed, next_generation() }
end

-- What an acknowledgement checks before it moves anything: the member's cursor, then up_to.
-- Answers the cursor, which the move then needs.
local function check_acknowledge(member, up_to)
  local cursor = check_member(member)
  check_up_to(up_to)
  return cursor
end

-- Acknowledgement.move: what an acknowledgement moves once checked, from the cursor the check
-- read: forward only, then drop what every member has seen. Answers the cursor afterwards.
local function move_acknowledged(member, cursor, up_to)
  if up_to <= cursor then
    return cursor
  end
  redis.call('ZADD', chat.members, up_to, member)
  trim_acknowledged()
  return up_to
end

-- Chat.acknowledgeAll over a batch laid out in names from position first, one record of size
-- record per chat: how far to acknowledge at offset 1, the chat's nine keys from offset 2. The
-- checks of every chat come before any cursor moves, and keep the cursors they read for the
-- moves. A refusal says which chat it is about by its position in the batch, from 1: checking
-- holds it while the checks run. Answers each chat's cursor afterwards, or only checks.
local checking = 0

local function check_acknowledge_all(member, names, first, record)
  local cursors = {}
  for at = first, #names, record do
    checking = checking + 1
    focus(names, at + 2)
    cursors[checking] = check_acknowledge(member, tonumber(names[at + 1]))
  end
  return cursors
end

local function acknowledge_all(member, names, first, record)
  local cursors = check_acknowledge_all(member, names, first, record)
  local n = 0
  for at = first, #names, record do
    n = n + 1
    focus(names, at + 2)
    cursors[n] = move_acknowledged(member, cursors[n], tonumber(names[at + 1]))
  end
  return cursors
end

-- Someone already in keeps its cursor and join point, and is never refused for it.
local function bring_in(user, join_point, limits)
  if redis.call('ZSCORE', chat.members, user) then
    return { 'ALREADY_MEMBER', generation() }
  end
  check_room(limits.max_members)
  add_member(user, join_point)
  return { 'JOINED', next_generation() }
end

-- Chat.join: by brings user in at the last id, its cursor and join point.
local function join(by, user, limits)
  check_may_bring_in(by, user)
  return bring_in(user, last_id(), limits)
end

-- Chat.accept: an invitation is only as good as its inviter, who must still be in. The invitee
-- comes in where it was invited, or at the last id of a chat opened again since, which has not
-- reached that point.
local function accept(inviter, user, join_point, limits)
  check_member(inviter)
  return bring_in(user, math.min(join_point, last_id()), limits)
end

-- Chat.leave: the last one out deletes every key of the chat in this same step, so no send,
-- join or acknowledge can run in between and find half a chat.
local function leave(member)
  check_member(member)
  redis.call('ZREM', chat.members, member)
  redis.call('ZREM', chat.joined, member)
  local out_at = next_generation()
  if redis.call('ZCARD', chat.members) == 0 then
    redis.call('DEL', chat.ids, chat.msgs, chat.sent, chat.windows, chat.joined, chat.open, chat.buckets,
      chat.generation)
    return { 'LEFT', 1, out_at }
  end
  trim_acknowledged()
  return { 'LEFT', 0, out_at }
end

-- Where a read starts: never at or below the reader's join point.
local function read_from(reader, after)
  return math.max(after, join_point(reader))
end

-- What Java needs to build the answer of Chat.read or Chat.pending through HistoryWindow: the
-- member's cursor, the ids handed out and held, the page after from, the join point.
local function view(member, cursor, from, limit)
  local last = last_id()
  local page = redis.call('ZRANGEBYSCORE', chat.msgs, '(' .. from, '+inf', 'LIMIT', 0, limit)
  return { 'READ', cursor, last, first_available_id(last), page, join_point(member), from }
end

-- Chat.pending: from the member's cursor, which is never below its join point.
local function pending(member, limit)
  local cursor = check_member(member)
  return view(member, cursor, cursor, limit)
end

-- pending() in every chat named in names from position first, each chat's refusal answered
-- rather than thrown, so that a chat the member's index still lists after leaving it does not
-- end the others.
local function pending_each(member, limit, names, first)
  local views = { 'PENDING' }
  for at = first, #names, CHAT_KEYS do
    focus(names, at)
    local cursor = redis.call('ZSCORE', chat.members, member)
    if cursor then
      views[#views + 1] = view(member, tonumber(cursor), tonumber(cursor), limit)
    else
      views[#views + 1] = outsider(member)
    end
  end
  return views
end

-- Chat.read.
local function read(reader, after, limit)
  local cursor = check_member(reader)
  return view(reader, cursor, read_from(reader, after), limit)
end

-- Chat.summaryFor.
local function summary(member)
  local cursor = check_member(member)
  local access = 'PRIVATE'
  if redis.call('EXISTS', chat.open) == 1 then
    access = 'OPEN'
  end
  return { 'SUMMARY', cursor, last_id(), redis.call('ZRANGE', chat.members, 0, -1), access }
end

-- Who is in the chat, asked by no one: what the index sweep checks users' indexes against.
local function membership()
  check_exists()
  return { 'MEMBERS', generation(), redis.call('ZRANGE', chat.members, 0, -1) }
end
