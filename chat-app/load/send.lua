-- wrk script: every request sends one message to the chat named in the URL.
--   wrk -t2 -c16 -d15s --latency -s send.lua http://127.0.0.1:8080/api/chats/<id>/messages -- <token>
-- The token comes as a script argument rather than an environment variable so that a run's
-- command line says everything it used.

local threads = {}

-- setup() runs in the main Lua state; keeping each thread's handle is the only way done() can
-- read the counters the threads kept in their own states.
function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  if args[1] == nil or args[1] == "" then
    error("send.lua needs the bearer token: wrk ... <url> -- <token>")
  end
  wrk.method = "POST"
  wrk.body = '{"message":"hello"}'
  wrk.headers["Content-Type"] = "application/json"
  wrk.headers["Authorization"] = "Bearer " .. args[1]
  non201 = 0
  statuses = {}
end

-- wrk's own "Non-2xx or 3xx" line misses a 200 or 204 where the send contract says 201, and
-- it says nothing of which status came back; this counts every answer that is not a 201.
function response(status, headers, body)
  if status ~= 201 then
    non201 = non201 + 1
    statuses[status] = (statuses[status] or 0) + 1
  end
end

function done(summary, latency, requests)
  local bad = 0
  local by_status = {}
  for _, thread in ipairs(threads) do
    bad = bad + thread:get("non201")
    for status, count in pairs(thread:get("statuses")) do
      by_status[status] = (by_status[status] or 0) + count
    end
  end
  local seconds = summary.duration / 1e6
  local errors = summary.errors
  local socket_errors = errors.connect + errors.read + errors.write + errors.timeout
  io.write(string.format("non-201 responses: %d\n", bad))
  for status, count in pairs(by_status) do
    io.write(string.format("  status %d: %d\n", status, count))
  end
  -- One line that a script can take apart without parsing wrk's human-oriented units.
  io.write(string.format("RESULT requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d non201=%d socket_errors=%d\n",
    summary.requests, seconds, summary.requests / seconds,
    latency:percentile(50), latency:percentile(99), bad, socket_errors))
end
