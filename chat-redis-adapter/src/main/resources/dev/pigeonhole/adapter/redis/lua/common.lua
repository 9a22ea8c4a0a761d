-- Shared by every script: this text is put in front of each one when it is loaded.
-- Replies are always tables whose first element is a word naming the answer, so both clients
-- decode them the same way and Java maps each word to one outcome.

-- Ends the script's step with a refusal, the way the domain throws: nothing after it runs.
-- Every check comes before the first write, so a refusal leaves nothing half done.
local function refuse(...)
  error({ refusal = { ... } })
end

-- Runs a step and answers with its reply, or with the refusal it ended with. Any other error
-- (a bug, a Redis error) goes on as the script's error reply.
local function answer(step)
  local ok, reply = pcall(step)
  if ok then
    return reply
  end
  if type(reply) == 'table' and reply.refusal then
    return reply.refusal
  end
  error(reply)
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
