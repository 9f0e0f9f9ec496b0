-- wrk script: signed generic-scheme webhooks with unique event ids, spread over BENCH_TENANTS tenants, with a share
-- of deliberate duplicates (BENCH_DUPLICATES, default 0: an id this thread sent at least 1,024 requests earlier, so
-- its first copy has been answered). The generic signature covers the body only, so one precomputed signature
-- serves every request; the X-Event-ID header (not signed; the buffer binds it to the body's hash) makes each event
-- distinct. BENCH_PATH is the path before the tenant id (default /webhook/; /bench/ceiling?tenant= for the HTTP
-- ceiling). Set by bench/wrk-ingest.sh and bench/run.sh. The last line it prints, "wrk-result ...", is read by
-- BenchReport.
local tenants = tonumber(os.getenv("BENCH_TENANTS") or "10")
local prefix = os.getenv("BENCH_TENANT_PREFIX") or "bench"
local signature = os.getenv("BENCH_SIGNATURE")
local body = os.getenv("BENCH_BODY")
local path = os.getenv("BENCH_PATH") or "/webhook/"
local duplicates = tonumber(os.getenv("BENCH_DUPLICATES") or "0")
local ring_size = 2048
local threads = {}

function setup(thread)
  table.insert(threads, thread)
  thread:set("thread_id", #threads)
end

function init(args)
  counter = 0
  dups = 0
  refused = {}
  ring = {}
  run_id = os.getenv("BENCH_RUN") or tostring(os.time())
  math.randomseed(os.time() + thread_id)
end

function request()
  counter = counter + 1
  local tenant, id
  if duplicates > 0 and counter > ring_size and math.random() < duplicates then
    -- from the older half of the ring: sent at least ring_size / 2 requests ago
    local slot = (counter + math.random(0, ring_size / 2 - 1)) % ring_size
    tenant, id = ring[slot][1], ring[slot][2]
    dups = dups + 1
  else
    tenant = prefix .. "-" .. (counter % tenants)
    id = run_id .. "-" .. thread_id .. "-" .. counter
    ring[counter % ring_size] = { tenant, id }
  end
  return wrk.format("POST", path .. tenant, {
    ["Content-Type"] = "application/json",
    ["X-Signature"] = signature,
    ["X-Event-ID"] = id,
  }, body)
end

-- Answers other than 2xx, by status (a 2xx answer costs no Lua work beyond the call).
function response(status, headers, body)
  if status >= 300 then
    local key = tostring(status)
    refused[key] = (refused[key] or 0) + 1
  end
end

function done(summary, latency, requests)
  local sent_dups = 0
  local by_status = {}
  for _, t in ipairs(threads) do
    sent_dups = sent_dups + (t:get("dups") or 0)
    for status, n in pairs(t:get("refused") or {}) do
      by_status[status] = (by_status[status] or 0) + n
    end
  end
  local statuses = ""
  for status, n in pairs(by_status) do
    statuses = statuses .. status .. ":" .. n .. ";"
  end
  local seconds = summary.duration / 1e6
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("requests: %d in %.1fs = %.0f req/s; duplicates sent: %d; non-2xx: %d; socket errors: %d\n",
    summary.requests, seconds, summary.requests / seconds, sent_dups, summary.errors.status, errors))
  for _, p in ipairs({50, 90, 99, 99.9}) do
    io.write(string.format("ack latency p%s: %.2f ms\n", p, latency:percentile(p) / 1000))
  end
  io.write(string.format("ack latency max: %.2f ms\n", latency.max / 1000))
  io.write(string.format("wrk-result requests=%d seconds=%.3f duplicates=%d non2xx=%d errors=%d p50=%.3f p99=%.3f max=%.3f refused=%s\n",
    summary.requests, seconds, sent_dups, summary.errors.status, errors, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000, statuses))
end
