-- Opens a chat with its members, all at cursor 0, and sends its first message.
-- KEYS: members, ids, msgs [, book send lock]
-- ARGV: creator, tail, max retained, publish mode, channel, event head, chat, member...
local members, ids, msgs = KEYS[1], KEYS[2], KEYS[3]

if redis.call('EXISTS', members) == 1 then
  return { 'EXISTS' }
end
if KEYS[4] and redis.call('EXISTS', KEYS[4]) == 1 then
  return { 'LOCKED' }
end
-- A chat that was deleted left nothing, but a book client may have sent to a chat without
-- members; a new chat starts at id 1 whatever was there.
redis.call('DEL', ids, msgs)
for i = 8, #ARGV do
  redis.call('ZADD', members, 0, ARGV[i])
end
local id = append(members, ids, msgs, nil, ARGV[7], ARGV[1], 0, ARGV[2], tonumber(ARGV[3]),
                  ARGV[4], ARGV[5], ARGV[6])
return { 'OK', id }
