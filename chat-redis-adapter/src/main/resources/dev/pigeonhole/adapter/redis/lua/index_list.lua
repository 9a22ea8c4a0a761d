-- The chats in a user's index.
-- KEYS: user's index
return { 'OK', redis.call('ZRANGE', KEYS[1], 0, -1) }
