-- Records a sighting and answers when the user was seen before it. Last-seen never moves back.
-- KEYS: presence
-- ARGV: user, epoch millis
local previous = redis.call('ZSCORE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[1], 'GT', ARGV[2], ARGV[1])
return { 'OK', previous }
