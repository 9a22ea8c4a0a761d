-- A user's consent as kept: its version (nil before the first write) and its JSON.
-- KEYS: the user's consent
return { 'KEPT', redis.call('HMGET', KEYS[1], 'version', 'consent') }
