-- What Redis calls of the Chat aggregate: each function's keys and arguments, as ChatScripts.java
-- writes them, and its registration. FunctionLibrary puts this file right after chat.lua,
-- chat_messages.lua and chat_operations.lua, in the same block, so all of them see the same steps.

-- ------------------------------------------------------------------ the functions' arguments
-- As ChatScripts.java writes them. args[1] is always the chat's id.

-- send and open: chat, user, tail, at (epoch millis), key field ('' for none), key window
-- (millis), body digest, max retained, max members, rate burst, rate interval (millis, 0 for
-- none), publish mode, channel, the event before its id, the event after its id
-- [, access, others...]
-- Redis runs one function at a time, so every call fills these same tables rather than making
-- new ones: a send then allocates nothing for its arguments.
local message, rate, publishing = {}, {}, {}
local limits = { rate = rate }

local function posting_arguments(args)
  message.tail, message.at, message.key_field = args[3], tonumber(args[4]), args[5]
  message.key_window, message.digest = tonumber(args[6]), args[7]
  limits.max_retained, limits.max_members = tonumber(args[8]), tonumber(args[9])
  rate.burst, rate.interval = tonumber(args[10]), tonumber(args[11])
  publishing.mode, publishing.channel = args[12], args[13]
  publishing.before_id, publishing.after_id = args[14], args[15]
  return args[2], message, limits, publishing
end

-- open adds: access ('OPEN' or 'PRIVATE'), then the others
local function opening_arguments(args)
  return args[16], { unpack(args, 17) }
end

local function opening(args)
  local creator, first, limits, publishing = posting_arguments(args)
  local access, others = opening_arguments(args)
  return open(creator, others, access, first, limits, publishing)
end

-- ------------------------------------------------------------------ the functions
-- Every function about one chat takes the chat's nine keys. Each answers what its step answers,
-- or the refusal the step ended with.

-- args: see posting_arguments()
register('chat_send', function(keys, args)
  focus(keys, 1)
  return answer(send, posting_arguments(args))
end)

-- args: see posting_arguments() and opening_arguments()
register('chat_open', function(keys, args)
  focus(keys, 1)
  return answer(opening, args)
end)

-- args: chat, by, user, max members
register('chat_join', function(keys, args)
  focus(keys, 1)
  return answer(join, args[2], args[3], { max_members = tonumber(args[4]) })
end)

-- args: chat, inviter, invitee, join point, max members
register('chat_accept', function(keys, args)
  focus(keys, 1)
  return answer(accept, args[2], args[3], tonumber(args[4]), { max_members = tonumber(args[5]) })
end)

-- args: chat, member. A leave refused because the member is out already, or the chat gone,
-- answers with the stale generation after its refusal: a leave tried again after its index step
-- was lost then gets that step done.
local function out_already(reply)
  if reply[1] ~= 'LEFT' then
    reply[#reply + 1] = stale_generation()
  end
  return reply
end

register('chat_leave', function(keys, args)
  focus(keys, 1)
  return out_already(answer(leave, args[2]))
end)

-- args: chat, reader, after, limit
register('chat_read', function(keys, args)
  focus(keys, 1)
  return answer(read, args[2], tonumber(args[3]), tonumber(args[4]))
end, READS)

-- args: chat, member
register('chat_summary', function(keys, args)
  focus(keys, 1)
  return answer(summary, args[2])
end, READS)

-- Who is in a chat, for the index sweep; a chat that is gone answers with its stale generation.
-- args: chat
register('chat_membership', function(keys)
  focus(keys, 1)
  local reply = answer(membership)
  if reply[1] == 'NO_CHAT' then
    reply[#reply + 1] = stale_generation()
  end
  return reply
end, READS)

-- What a member has not read in several chats at once, changing nothing, for every chat of a
-- node in one call: a call per chat would pay the call's own start-up once per chat.
-- keys: the first chat's nine keys, which route the call.
-- args: member, limit per chat, then each chat's nine keys.
-- Answers PENDING, then for each chat in the order of args what pending() answers: READ with the
-- view, or the refusal (NO_CHAT, NOT_MEMBER) of a chat the member's index still lists.
register('chats_pending', function(_, args)
  return pending_each(args[1], tonumber(args[2]), args, 3)
end, { 'no-writes', 'allow-cross-slot-keys' })

-- Acknowledges in several of a member's chats as one step. On a single node it runs once for the
-- whole batch; on a cluster, where a function reaches only the slots of its own node, once per
-- node, first only checking (CHECK) every node's chats and then moving (MOVE) them.
-- keys: the first chat's nine keys, which route the call.
-- args: CHECK or MOVE, member, the member's seen:<member> in the book layout ('' in the tagged
--       one), then for each chat: its id, how far to acknowledge, its nine keys.
-- The book's fetch reads each cursor from seen:<member>, so that follows them in this step.
local ACKNOWLEDGED, FIRST_RECORD, RECORD = { 'ACKNOWLEDGED' }, 4, 2 + CHAT_KEYS

local function acknowledging(args)
  local member, seen = args[2], args[3]
  if args[1] == 'CHECK' then
    check_acknowledge_all(member, args, FIRST_RECORD, RECORD)
    return ACKNOWLEDGED
  end
  local cursors = acknowledge_all(member, args, FIRST_RECORD, RECORD)
  if seen ~= '' then
    for n, cursor in ipairs(cursors) do
      redis.call('ZADD', seen, cursor, args[FIRST_RECORD + (n - 1) * RECORD])
    end
  end
  return ACKNOWLEDGED
end

register('chats_acknowledge', function(_, args)
  checking = 0
  local ok, reply = pcall(acknowledging, args)
  if ok then
    return reply
  end
  local refusal = refusal_of(reply)
  table.insert(refusal, 2, checking)
  return refusal
end, { 'allow-cross-slot-keys' })
