-- The Chat aggregate (dev.pigeonhole.domain.model.chat.Chat) in Lua, for the one place Java cannot
-- run: inside Redis's atomic step. Each function is the Java method or step of the same name,
-- with the same checks in the same order; a refusal here is an exception there. The contract
-- suite runs random operations against Chat and against these functions side by side, so the
-- two cannot drift apart unnoticed.
--
-- It is three files, which FunctionLibrary puts one after the other in one block, so each sees
-- the steps before it: this one, the chat's keys and who is in the chat (the steps about members,
-- as Members.java holds them, and the membership generation); chat_messages.lua, the steps about
-- ids and messages (MessageIds, KeyedSends, SendBuckets); chat_operations.lua, the operations
-- built from both, as Chat.java's public methods. What Redis calls of them, and with what keys
-- and arguments, is in chat_functions.lua, after them.
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

-- ------------------------------------------------------------------ the steps about members

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

-- Moves the sender's cursor to its own message only if it had seen everything before it.
local function move_sender_cursor(sender, cursor, id)
  if cursor == id - 1 then
    redis.call('ZADD', chat.members, id, sender)
    return 1
  end
  return 0
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
