-- Up to max of the oldest messages, removing nothing: the owner acknowledges what it has.
-- KEYS: mailbox
-- ARGV: max
return { 'OK', redis.call('LRANGE', KEYS[1], 0, tonumber(ARGV[1]) - 1) }
