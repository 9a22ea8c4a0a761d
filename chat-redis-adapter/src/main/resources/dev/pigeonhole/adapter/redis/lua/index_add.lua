-- Lists a chat in a user's index, unless it is listed already (in the book layout, with the
-- cursor the chat's own script put there).
-- KEYS: user's index
-- ARGV: chat
redis.call('ZADD', KEYS[1], 'NX', 0, ARGV[1])
return { 'OK' }
