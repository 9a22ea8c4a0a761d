-- Chat ids, and each user's index of its chats: a sorted set of chat ids, each scored by the
-- membership generation of the change that listed it (see next_generation() in chat.lua).

-- The next chat id. keys: the counter
register('counter_next', function(keys)
  return { 'OK', redis.call('INCR', keys[1]) }
end)

-- Whether a chat exists. keys: the chat's members
register('chat_exists', function(keys)
  return { 'OK', redis.call('EXISTS', keys[1]) }
end, READS)

-- Lists a chat in a user's index at the membership generation of the change that put the user
-- in it; a later generation already there stays (a late add must not lower it).
-- keys: the user's index; args: chat, generation
-- Answers OK with 1 when the chat was not listed before.
register('index_add', function(keys, args)
  return { 'OK', redis.call('ZADD', keys[1], 'GT', args[2], args[1]) }
end)

-- Drops a chat from a user's index, unless a change newer than this one listed it again: a
-- leave's late remove must not undo the join that followed it.
-- keys: the user's index; args: chat, generation of the change that took the user out
-- Answers OK with 1 when it dropped the chat.
register('index_remove', function(keys, args)
  local listed = redis.call('ZSCORE', keys[1], args[1])
  if listed and tonumber(listed) <= tonumber(args[2]) then
    redis.call('ZREM', keys[1], args[1])
    return { 'OK', 1 }
  end
  return { 'OK', 0 }
end)

-- The chats in a user's index. keys: the user's index
register('index_list', function(keys)
  return { 'OK', redis.call('ZRANGE', keys[1], 0, -1) }
end, READS)
