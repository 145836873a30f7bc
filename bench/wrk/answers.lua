-- wrk script for answer ingest: every request is a fresh (member, question) pair, as in
-- bench/answer-ingest.ts, redeemed with the member's anonymous credential for the question's
-- survey (header Candor-Credential, no Authorization: decision 020). Arguments: credentials file
-- (one line per member: its credentials, tab-separated, in the order of the surveys), targets
-- file ("qid<TAB>survey index<TAB>body for profile 0<TAB>...<TAB>body for profile P-1" per line),
-- first pair index, number of wrk threads. Prints one JSON line with the totals, latency
-- percentiles and pairs used.
local threads = {}
local counter = 0

function setup(thread)
  thread:set("id", counter)
  counter = counter + 1
  table.insert(threads, thread)
end

local credentials, targets = {}, {}
local nextPair, stride = 0, 1
-- Globals, so done() can read them from each thread with thread:get().
sent, created = 0, 0
local uuidCounter = 0

local function split(line)
  local fields = {}
  for field in string.gmatch(line, "[^\t]+") do fields[#fields + 1] = field end
  return fields
end

function init(args)
  for line in io.lines(args[1]) do credentials[#credentials + 1] = split(line) end
  for line in io.lines(args[2]) do
    local fields = split(line)
    local bodies = {}
    for k = 3, #fields do bodies[#bodies + 1] = fields[k] end
    targets[#targets + 1] = { qid = fields[1], survey = tonumber(fields[2]), bodies = bodies }
  end
  -- Thread i takes pairs from+i, from+i+threads, ...
  stride = tonumber(args[4])
  nextPair = tonumber(args[3]) + id
end

function request()
  local i = nextPair
  nextPair = nextPair + stride
  sent = sent + 1
  local m = #credentials
  local member = i % m
  local q = (member + math.floor(i / m)) % #targets
  local target = targets[q + 1]
  uuidCounter = uuidCounter + 1
  local headers = {
    ["Content-Type"] = "application/json",
    ["Candor-Credential"] = credentials[member + 1][target.survey + 1],
    ["Idempotency-Key"] = string.format("bench-%d-%d-%d", id, i, uuidCounter),
  }
  -- The member's device sends the same class with every answer.
  local body = target.bodies[(member % #target.bodies) + 1]
  return wrk.format("POST", "/api/v1/questions/" .. target.qid .. "/answer/", headers, body)
end

function response(status, headers, body)
  if status == 201 then created = created + 1 end
end

function done(summary, latency, requests)
  local used, made = 0, 0
  for _, t in ipairs(threads) do
    used = used + t:get("sent")
    made = made + t:get("created")
  end
  local errors = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"p50_us":%d,"p99_us":%d,"non2xx":%d,"socket_errors":%d,"used":%d,"created":%d}\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    errors.status, errors.connect + errors.read + errors.write + errors.timeout, used, made))
end
