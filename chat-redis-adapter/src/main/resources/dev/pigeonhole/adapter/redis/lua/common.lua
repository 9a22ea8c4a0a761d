-- What every chapter of the library shares. FunctionLibrary puts this first, after the header it
-- writes itself: the #!lua line that names the library and `local VERSION = <n>`, the version a
-- server checks before it calls anything (Functions.VERSION).
--
-- Replies are always tables whose first element is a word naming the answer, so both clients
-- decode them the same way and Java maps each word to one outcome.

-- Ends the function's step with a refusal, the way the domain throws: nothing after it runs.
-- Every check comes before the first write, so a refusal leaves nothing half done.
local function refuse(...)
  error({ refusal = { ... } })
end

-- Answers with what a refusal carries, or passes any other error (a bug, a Redis error) on as the
-- function's error reply.
local function refusal_of(failure)
  if type(failure) == 'table' and failure.refusal then
    return failure.refusal
  end
  error(failure)
end

-- Runs step(...) and answers with its reply, or with the refusal it ended with. The arguments
-- go through pcall, so no closure is made per call.
local function answer(step, ...)
  local ok, reply = pcall(step, ...)
  if ok then
    return reply
  end
  return refusal_of(reply)
end

-- mode: P = PUBLISH (single node), S = SPUBLISH (cluster), SP = both (a cluster where pattern
-- subscribers, which only see classic PUBLISH, must hear chat events too).
local function announce(mode, channel, payload)
  if mode ~= 'S' then
    redis.call('PUBLISH', channel, payload)
  end
  if mode ~= 'P' then
    redis.call('SPUBLISH', channel, payload)
  end
end

-- Registers a function under its name and the library's version (chat_send_v3): a server that
-- knows another version finds none of its names, and learns so instead of calling code it does
-- not know. flags: nil, or Redis's flags ('no-writes', 'allow-cross-slot-keys').
local function register(name, callback, flags)
  redis.register_function({ function_name = name .. '_v' .. VERSION, callback = callback, flags = flags or {} })
end

local READS = { 'no-writes' }
