-- Delivers one message: deliver() in mailbox.lua. One round trip; the announcement on the
-- owner's channel goes out in the same step, so one owner's deliveries go out in id order.
-- KEYS: the owner's mailbox, its id counter and its strangers' ids (the owner's hash tag: one
-- slot, with its channel)
-- ARGV: message tail (its JSON after {"id":N,), sender kind (STRANGER or CO_MEMBER), capacity,
-- strangers' share, publish mode, owner's channel, the event before its id, the event after its id
return answer(function()
  return deliver({ tail = ARGV[1] }, ARGV[2], { capacity = tonumber(ARGV[3]), strangers_share = tonumber(ARGV[4]) },
    { mode = ARGV[5], channel = ARGV[6], before_id = ARGV[7], after_id = ARGV[8] })
end)
