-- Those of the given users seen at or after a time: one ZMSCORE, however many others are online.
-- KEYS: presence
-- ARGV: epoch millis, then the users (Java sends at most a thousand per call)
local since = tonumber(ARGV[1])
local users = { unpack(ARGV, 2) }
local scores = redis.call('ZMSCORE', KEYS[1], unpack(users))
local seen = {}
for i, score in ipairs(scores) do
  if score and tonumber(score) >= since then
    seen[#seen + 1] = users[i]
  end
end
return { 'OK', seen }
