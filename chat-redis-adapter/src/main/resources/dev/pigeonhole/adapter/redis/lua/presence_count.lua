-- How many users were seen at or after a time, in O(log n): the online gauge's one question.
-- KEYS: presence
-- ARGV: epoch millis
return { 'OK', redis.call('ZCOUNT', KEYS[1], ARGV[1], '+inf') }
