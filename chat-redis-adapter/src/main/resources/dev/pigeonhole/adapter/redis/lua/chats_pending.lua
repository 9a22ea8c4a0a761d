-- A member's view of several chats at once, changing nothing: read() in chat.lua for each, from
-- the member's own cursor, which is what Chat.pending builds on. One script for every chat of a
-- single node, where a script per chat would pay the script's own start-up once per chat.
-- KEYS: the nine keys of each chat in turn
-- ARGV: member, limit per chat
-- Answers PENDING, then for each chat in the order of KEYS what chat_read.lua answers: READ with
-- the view, or the refusal (NO_CHAT, NOT_MEMBER) of a chat the member's index still lists.
local member, limit = ARGV[1], tonumber(ARGV[2])
local views = { 'PENDING' }
for n = 1, #KEYS / CHAT_KEYS do
  focus(n)
  views[n + 1] = answer(function()
    return read(member, nil, limit)
  end)
end
return views
