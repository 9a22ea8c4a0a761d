-- Lists a chat in a user's index at the membership generation of the change that put the user
-- in it; a later generation already there stays (a late add must not lower it).
-- KEYS: user's index
-- ARGV: chat, generation
-- Answers OK with 1 when the chat was not listed before.
return { 'OK', redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[1]) }
