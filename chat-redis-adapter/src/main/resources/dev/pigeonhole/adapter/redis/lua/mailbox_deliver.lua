-- Delivers one message: deliver() in mailbox.lua. One round trip; the announcement on the
-- owner's channel goes out in the same step, so one owner's deliveries go out in id order.
-- KEYS: the owner's mailbox and its id counter (the owner's hash tag: one slot, with its channel)
-- ARGV: message tail (its JSON after {"id":N,), capacity, publish mode, owner's channel, the event
-- before its id, the event after its id
return answer(function()
  return deliver({ tail = ARGV[1] }, tonumber(ARGV[2]),
    { mode = ARGV[3], channel = ARGV[4], before_id = ARGV[5], after_id = ARGV[6] })
end)
