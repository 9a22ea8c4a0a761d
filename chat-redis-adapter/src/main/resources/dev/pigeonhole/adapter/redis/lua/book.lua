-- What the book key layout adds to the chat functions, kept out of their main line: the book_*
-- twins of the functions that change a chat. FunctionLibrary puts this file after the chat's
-- other files (chat.lua to chat_functions.lua), in the same block. Each twin takes the chat's
-- nine keys, then the book's lock:chat:<chat>, then the seen:<user> of each user the operation is about. seen:<user> is the
-- book's index of the user's chats, kept here in the chat's own step: it needs no second step,
-- so no membership generation either.
--
-- A book client holds lock:chat:<chat> between its INCR and its ZADD, so a send or an open of
-- ours in between could land before its message with a higher id: ours wait (Java retries on
-- LOCKED). And the book's fetch reads each user's cursor from seen:<user>, so that follows the
-- member's cursor in the same step as the chat.
local LOCK, FIRST_SEEN = 10, 11

local function check_unlocked(keys)
  if redis.call('EXISTS', keys[LOCK]) == 1 then
    refuse('LOCKED')
  end
end

-- Sets seen:<user> to the user's cursor in the chat, or drops the chat from it for a non-member;
-- users are in the order of their seen keys.
local function mirror_cursors(keys, chat_id, users)
  for i = FIRST_SEEN, #keys do
    local cursor = redis.call('ZSCORE', chat.members, users[i - FIRST_SEEN + 1])
    if cursor then
      redis.call('ZADD', keys[i], cursor, chat_id)
    else
      redis.call('ZREM', keys[i], chat_id)
    end
  end
end

-- Runs step(...), an operation of chat_operations.lua, on the twin's chat, then mirrors the cursors of users.
local function mirrored(keys, chat_id, users, step, ...)
  local reply = step(...)
  mirror_cursors(keys, chat_id, users)
  return reply
end

local function locked_send(keys, args)
  check_unlocked(keys)
  local sender, message, limits, publishing = posting_arguments(args)
  return mirrored(keys, args[1], { sender }, send, sender, message, limits, publishing)
end

local function locked_open(keys, args)
  check_unlocked(keys)
  local creator = args[2]
  local _, others = opening_arguments(args)
  return mirrored(keys, args[1], { creator, unpack(others) }, opening, args)
end

-- keys: the chat's nine keys, lock:chat:<chat>, seen:<sender>; args: as chat_send
register('book_chat_send', function(keys, args)
  focus(keys, 1)
  return answer(locked_send, keys, args)
end)

-- keys: the chat's nine keys, lock:chat:<chat>, seen:<creator>, seen:<other>...; args: as chat_open
register('book_chat_open', function(keys, args)
  focus(keys, 1)
  return answer(locked_open, keys, args)
end)

-- keys: the chat's nine keys, lock:chat:<chat>, seen:<user>; args: as chat_join
register('book_chat_join', function(keys, args)
  focus(keys, 1)
  return answer(mirrored, keys, args[1], { args[3] }, join, args[2], args[3], { max_members = tonumber(args[4]) })
end)

-- keys: the chat's nine keys, lock:chat:<chat>, seen:<invitee>; args: as chat_accept
register('book_chat_accept', function(keys, args)
  focus(keys, 1)
  return answer(mirrored, keys, args[1], { args[3] }, accept, args[2], args[3], tonumber(args[4]),
    { max_members = tonumber(args[5]) })
end)

-- keys: the chat's nine keys, lock:chat:<chat>, seen:<member>; args: as chat_leave
register('book_chat_leave', function(keys, args)
  focus(keys, 1)
  return out_already(answer(mirrored, keys, args[1], { args[2] }, leave, args[2]))
end)
