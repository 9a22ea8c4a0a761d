-- What the book key layout adds to the chat scripts, kept out of their main line. Put after
-- chat.lua in front of each book_*.lua script, which take the chat's nine keys, then the book's
-- lock:chat:<chat>, then the seen:<user> of each user the operation is about. seen:<user> is the
-- book's index of the user's chats, kept here in the chat's own step: it needs no second step,
-- so no membership generation either.
--
-- A book client holds lock:chat:<chat> between its INCR and its ZADD, so a send or an open of
-- ours in between could land before its message with a higher id: ours wait (Java retries on
-- LOCKED). And the book's fetch reads each user's cursor from seen:<user>, so that follows the
-- member's cursor in the same step as the chat.
local book = { lock = KEYS[10] }

local function check_unlocked()
  if redis.call('EXISTS', book.lock) == 1 then
    refuse('LOCKED')
  end
end

-- Sets seen:<user> to the user's cursor in the chat, or drops the chat from it for a non-member.
local function mirror_cursors()
  for i = 11, #KEYS do
    local user = book.users[i - 10]
    local cursor = redis.call('ZSCORE', chat.members, user)
    if cursor then
      redis.call('ZADD', KEYS[i], cursor, ARGV[1])
    else
      redis.call('ZREM', KEYS[i], ARGV[1])
    end
  end
end
