-- KEYS: user's index
-- ARGV: chat
redis.call('ZREM', KEYS[1], ARGV[1])
return { 'OK' }
