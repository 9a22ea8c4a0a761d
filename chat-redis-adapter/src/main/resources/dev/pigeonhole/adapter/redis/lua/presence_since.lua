-- Users seen at or after a time.
-- KEYS: presence
-- ARGV: epoch millis
return { 'OK', redis.call('ZRANGEBYSCORE', KEYS[1], ARGV[1], '+inf') }
