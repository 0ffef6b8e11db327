// Trace ingest beside bench/from-source.sh, in its own process (so that its work never delays the load
// generator's clock): finished calls through the tracing-service's `POST /v2/{entity}/{project}/calls/complete`
// at a steady rate, open loop, in requests of BATCH calls (traces of 10 calls, ~1 KB of inputs and ~1 KB of
// output each, a usage summary), at most IN_FLIGHT requests at a time (a request whose slot comes while all are
// busy is skipped and counted). Runs until SIGTERM, then prints what it sent and what was acknowledged.
// Env: TRACING_URL, KEY, CALLS_S (500), BATCH (100), IN_FLIGHT (8).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';

const base = process.env.TRACING_URL;
const headers = { Authorization: `Bearer ${process.env.KEY}`, 'Content-Type': 'application/json' };
const callsPerSecond = Number(process.env.CALLS_S ?? 500);
const callsPerRequest = Number(process.env.BATCH ?? 100);
const maxInFlight = Number(process.env.IN_FLIGHT ?? 8);
const project = `ingest-${Date.now()}`;
const noise = 'lorem ipsum dolor sit amet '.repeat(36);

function body() {
  const batch = [];
  let traceId;
  for (let i = 0; i < callsPerRequest; i++) {
    const id = randomUUID();
    if (i % 10 === 0) traceId = id;
    const now = new Date().toISOString();
    batch.push({
      project_id: `dev/${project}`, id, trace_id: traceId, parent_id: i % 10 === 0 ? null : traceId, op_name: 'ingest_op',
      started_at: now, ended_at: now, attributes: { weave: { source: 'bench' } },
      inputs: { messages: [{ role: 'user', content: `${noise}${id}` }] },
      output: { choices: [{ message: { role: 'assistant', content: `${noise}${i}` } }] },
      summary: { usage: { 'gpt-4o-mini': { requests: 1, prompt_tokens: 250, completion_tokens: 250, total_tokens: 500 } } },
    });
  }
  return JSON.stringify({ batch });
}

let inFlight = 0;
let sent = 0;
let acknowledged = 0;
let skipped = 0;
const failures = new Map();
const latencies = [];

async function send() {
  inFlight++;
  sent++;
  const at = performance.now();
  try {
    const response = await fetch(`${base}/v2/dev/${project}/calls/complete`, { method: 'POST', headers, body: body(),
      signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    if (response.status === 200) {
      acknowledged++;
      latencies.push(performance.now() - at);
    } else {
      failures.set(response.status, (failures.get(response.status) ?? 0) + 1);
    }
  } catch (error) {
    failures.set(error.name, (failures.get(error.name) ?? 0) + 1);
  } finally {
    inFlight--;
  }
}

const started = performance.now();
const interval = 1000 * callsPerRequest / callsPerSecond;
let next = started;
const timer = setInterval(() => {
  while (performance.now() >= next) {
    next += interval;
    if (inFlight >= maxInFlight) skipped++;
    else send();
  }
}, 5);

process.on('SIGTERM', () => {
  clearInterval(timer);
  const seconds = (performance.now() - started) / 1000;
  const sorted = latencies.sort((a, b) => a - b);
  const p = (q) => sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)].toFixed(0) : 'n/a';
  console.log(`BENCH ingest beside: ${(acknowledged * callsPerRequest / seconds).toFixed(0)} calls/s acknowledged of ${callsPerSecond}/s asked`
    + ` (${acknowledged} of ${sent} calls/complete requests of ${callsPerRequest} calls in ${seconds.toFixed(0)} s, ${skipped} slots skipped`
    + ` with ${maxInFlight} in flight${failures.size ? `, failed: ${[...failures].map(([k, n]) => `${k}×${n}`).join(' ')}` : ''});`
    + ` request p50 ${p(0.5)} ms, p99 ${p(0.99)} ms`);
  process.exit(0);
});
