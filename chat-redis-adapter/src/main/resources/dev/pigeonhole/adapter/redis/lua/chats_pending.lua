#!lua flags=allow-cross-slot-keys
-- What a member has not read in several chats at once, changing nothing: pending() in chat.lua
-- for each. One script for every chat of a node, where a script per chat would pay the script's
-- own start-up once per chat; on a cluster the flag above lets it reach every slot its node serves.
-- KEYS: the first chat's nine keys, which route the call
-- ARGV: member, limit per chat, then each chat's nine keys
-- Answers PENDING, then for each chat in the order of ARGV what pending() answers: READ with the
-- view, or the refusal (NO_CHAT, NOT_MEMBER) of a chat the member's index still lists.
local member, limit = ARGV[1], tonumber(ARGV[2])
local views = { 'PENDING' }
for at = 3, #ARGV, CHAT_KEYS do
  focus(ARGV, at)
  views[#views + 1] = answer(function()
    return pending(member, limit)
  end)
end
return views
