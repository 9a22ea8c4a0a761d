-- Keeps a user's consent over the version it was read at, and only then: the compare and swap
-- that lets the domain apply every rule of consent in Java (Consents.replace).
-- KEYS: the user's consent
-- ARGV: the version read (0 for none kept), the next consent's JSON
-- Answers REPLACED with 1, or with 0 if another write came first.
local kept = tonumber(redis.call('HGET', KEYS[1], 'version') or '0')
if kept ~= tonumber(ARGV[1]) then
  return { 'REPLACED', 0 }
end
redis.call('HSET', KEYS[1], 'version', string.format('%d', kept + 1), 'consent', ARGV[2])
return { 'REPLACED', 1 }
