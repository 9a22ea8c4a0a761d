-- Removes every message whose id is upTo or less: the LTRIM of Redis in Action 6.5.1, after a
-- read. Ids run without a gap from the head of the list (a refused delivery takes none), so the
-- head's id says how many to drop without reading the rest. An id past the last one handed out
-- is refused before anything changes; one already removed drops nothing.
-- KEYS: mailbox, mailbox id counter
-- ARGV: upTo
local up_to = tonumber(ARGV[1])
local last_id = tonumber(redis.call('GET', KEYS[2]) or '0')
if up_to > last_id then
  return { 'BEYOND_LAST', last_id }
end
local head = redis.call('LINDEX', KEYS[1], 0)
if head then
  -- The deliver script writes the id first, exactly so: {"id":N,...
  local drop = up_to - tonumber(string.match(head, '^{"id":(%d+),')) + 1
  if drop > 0 then
    redis.call('LTRIM', KEYS[1], drop, -1)
  end
end
return { 'OK' }
