-- Lists a chat in a user's index, with the cursor it starts at.
-- KEYS: user's index
-- ARGV: chat, cursor
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
return { 'OK' }
