-- The operations of the Chat aggregate, each the Java method of the same name, built from the
-- steps of chat.lua (members) and chat_messages.lua (ids and messages), which come before this
-- file in its block. chat_functions.lua, after it, is what Redis calls of them.

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
