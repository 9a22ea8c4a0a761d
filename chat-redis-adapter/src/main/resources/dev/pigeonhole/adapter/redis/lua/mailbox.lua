-- The Mailbox aggregate (dev.pigeonhole.domain.model.mailbox.Mailbox) in Lua, for the one place
-- Java cannot run: inside Redis's atomic step. Each function is the Java method or step of the
-- same name, with the same checks in the same order; a refusal here is an exception there. The
-- contract suite runs random operations against Mailbox and against these functions side by
-- side. The registrations at the end say which functions Redis knows.
--
-- Every mailbox function takes the owner's three keys (they share the owner's hash tag): the
-- messages, a LIST, the id counter, and the ids strangers sent, a sorted set scored by id. The
-- aggregate's two numbers are kept as Redis in Action 6.5.1 keeps a mailbox: the last id is the
-- counter, and what is acknowledged is gone from the LIST, which therefore holds exactly the run
-- of ids above it, oldest at the head. Its fromStrangers is the sorted set.
local mailbox = {}

local function focus(keys)
  mailbox.messages, mailbox.ids, mailbox.strangers = keys[1], keys[2], keys[3]
end

-- ------------------------------------------------------------------ the steps

local function last_id()
  return tonumber(redis.call('GET', mailbox.ids) or '0')
end

-- The mailbox holds as many messages as the LIST does.
local function depth()
  return redis.call('LLEN', mailbox.messages)
end

-- The share is Mailbox.strangersShare(capacity), worked out in Java and passed in, so the rule
-- is written once. A stranger finding the mailbox full is refused here, before check_room, so it
-- is told nothing of how full the mailbox is.
local function check_stranger(from, limits)
  if from == 'STRANGER'
      and (redis.call('ZCARD', mailbox.strangers) >= limits.strangers_share or depth() >= limits.capacity) then
    refuse('STRANGER_REFUSED')
  end
end

local function check_room(capacity)
  if depth() >= capacity then
    refuse('FULL')
  end
end

local function next_id()
  return redis.call('INCR', mailbox.ids)
end

-- Stored as the book's JSON: Java wrote everything after the id, which only this step knows.
-- Answers the depth with it.
local function store_message(id, tail)
  return redis.call('RPUSH', mailbox.messages, '{"id":' .. id .. ',' .. tail)
end

local function check_up_to(up_to)
  local last = last_id()
  if up_to > last then
    refuse('BEYOND_LAST', last)
  end
end

-- Drops every message up to up_to. The ids held run without a gap from the head, so the head's
-- id says how many to drop without reading the rest; nothing held is at or below it when the
-- mailbox was acknowledged that far already.
local function trim_acknowledged(up_to)
  local head = redis.call('LINDEX', mailbox.messages, 0)
  if head then
    -- store_message writes the id first, exactly so: {"id":N,...
    local drop = up_to - tonumber(string.match(head, '^{"id":(%d+),')) + 1
    if drop > 0 then
      redis.call('LTRIM', mailbox.messages, drop, -1)
    end
  end
  redis.call('ZREMRANGEBYSCORE', mailbox.strangers, '-inf', up_to)
end

-- ------------------------------------------------------------------ the operations

-- Mailbox.deliver. message: { tail }; from: 'STRANGER' or 'CO_MEMBER' (Sender); limits:
-- { capacity, strangers_share }; publishing: { mode, channel, before_id, after_id }, the
-- announcement as the live event codec writes it, but for the id, which only this step knows.
local function deliver(message, from, limits, publishing)
  check_stranger(from, limits)
  check_room(limits.capacity)
  local id = next_id()
  local held = store_message(id, message.tail)
  if from == 'STRANGER' then
    redis.call('ZADD', mailbox.strangers, id, id)
  end
  announce(publishing.mode, publishing.channel, publishing.before_id .. id .. publishing.after_id)
  return { 'DELIVERED', id, held }
end

-- Mailbox.read: the oldest max messages held, which are exactly those above what is acknowledged.
local function read(max)
  return { 'READ', redis.call('LRANGE', mailbox.messages, 0, max - 1) }
end

-- Mailbox.acknowledge: forward only, since an id already dropped drops nothing again.
local function acknowledge(up_to)
  check_up_to(up_to)
  trim_acknowledged(up_to)
  return { 'ACKNOWLEDGED' }
end

-- ------------------------------------------------------------------ the functions
-- As MailboxScripts.java writes them.

-- args: message tail (its JSON after {"id":N,), sender kind (STRANGER or CO_MEMBER), capacity,
-- strangers' share, publish mode, owner's channel (the owner's hash tag: one slot with its keys),
-- the event before its id, the event after its id. The announcement goes out in the same step,
-- so one owner's deliveries go out in id order.
-- One function runs at a time, so every delivery fills these same tables rather than making new
-- ones.
local message, limits, publishing = {}, {}, {}

register('mailbox_deliver', function(keys, args)
  focus(keys)
  message.tail = args[1]
  limits.capacity, limits.strangers_share = tonumber(args[3]), tonumber(args[4])
  publishing.mode, publishing.channel, publishing.before_id, publishing.after_id = args[5], args[6], args[7], args[8]
  return answer(deliver, message, args[2], limits, publishing)
end)

-- args: max
register('mailbox_read', function(keys, args)
  focus(keys)
  return read(tonumber(args[1]))
end, READS)

-- The LTRIM of Redis in Action 6.5.1 after a read. args: up to
register('mailbox_acknowledge', function(keys, args)
  focus(keys)
  return answer(acknowledge, tonumber(args[1]))
end)
