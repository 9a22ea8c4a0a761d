-- RateLimit.take (dev.pigeonhole.domain.model.limits.RateLimit) in Lua, for the functions that
-- take a token inside their own atomic step: a chat's send and a user's quota. A bucket is one
-- number, the time it is full again, in milliseconds; the arithmetic is the Java method's, line
-- for line, in whole milliseconds.

-- interval: the limit's interval in ms, 0 for RateLimit.NONE. Answers admitted, full_at, retry_after.
local function take(full_at, now, burst, interval)
  if interval == 0 then
    return true, full_at, 0
  end
  local full_again = math.max(full_at, now) + interval
  local overdraft = full_again - now - burst * interval
  if overdraft > 0 then
    return false, full_at, overdraft
  end
  return true, full_again, 0
end
