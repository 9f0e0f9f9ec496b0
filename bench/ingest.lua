-- wrk script: signed generic-scheme webhooks with unique event ids, spread over BENCH_TENANTS tenants.
-- The generic signature covers the body only, so one precomputed signature serves every request; the
-- X-Event-ID header (not signed) makes each event distinct. Set by bench/wrk-ingest.sh.
local tenants = tonumber(os.getenv("BENCH_TENANTS") or "10")
local prefix = os.getenv("BENCH_TENANT_PREFIX") or "bench"
local signature = os.getenv("BENCH_SIGNATURE")
local body = os.getenv("BENCH_BODY")
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_id", threads)
end

function init(args)
  counter = 0
  run_id = os.getenv("BENCH_RUN") or tostring(os.time())
end

function request()
  counter = counter + 1
  local tenant = prefix .. "-" .. ((counter % tenants) + 1)
  return wrk.format("POST", "/webhook/" .. tenant, {
    ["Content-Type"] = "application/json",
    ["X-Signature"] = signature,
    ["X-Event-ID"] = run_id .. "-" .. thread_id .. "-" .. counter,
  }, body)
end

function done(summary, latency, requests)
  io.write(string.format("requests: %d in %.1fs = %.0f req/s; non-2xx: %d; socket errors: %d\n",
    summary.requests, summary.duration / 1e6, summary.requests / (summary.duration / 1e6),
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  for _, p in ipairs({50, 90, 99, 99.9}) do
    io.write(string.format("ack latency p%s: %.2f ms\n", p, latency:percentile(p) / 1000))
  end
  io.write(string.format("ack latency max: %.2f ms\n", latency.max / 1000))
end
