// Sustained `call/upsert_batch` ingest from its own process, through a kill -9 of the tracing-service.
// Each worker sends batches of new calls (start and end parts) and, like an SDK with retries, resends the
// same batch (same ids) until the service acknowledges it with 200. After the run it reads every call of
// the project back and checks: every acknowledged call is stored once, nothing else is stored.
// Env: TRACING_URL, KEY, VICTIM_PID (killed KILL_AFTER_S seconds in), DURATION_S, WORKERS, BATCH.
import { randomUUID } from 'node:crypto';

const base = process.env.TRACING_URL;
const headers = { Authorization: `Bearer ${process.env.KEY}`, 'Content-Type': 'application/json' };
const durationMs = Number(process.env.DURATION_S ?? 40) * 1000;
const killAfterMs = Number(process.env.KILL_AFTER_S ?? 12) * 1000;
const workers = Number(process.env.WORKERS ?? 4);
const callsPerBatch = Number(process.env.BATCH ?? 50);
const projectId = `dev/crash-${Date.now()}`;

const acknowledged = new Set();
let killedAt = null;
let firstFailureAt = null;
let firstAckAfterKill = null;
let failedSends = 0;
let batchesSent = 0;
const started = Date.now();

function batch() {
  const traceId = randomUUID();
  const parts = [];
  const ids = [];
  for (let i = 0; i < callsPerBatch; i++) {
    const id = randomUUID();
    ids.push(id);
    const now = new Date().toISOString();
    parts.push({ mode: 'start', req: { start: { project_id: projectId, id, trace_id: traceId, op_name: 'ingest',
      started_at: now, attributes: {}, inputs: { i } } } });
    parts.push({ mode: 'end', req: { end: { project_id: projectId, id, ended_at: now, output: { ok: true }, summary: {} } } });
  }
  return { ids, body: JSON.stringify({ batch: parts }) };
}

async function send(body) {
  try {
    const response = await fetch(`${base}/call/upsert_batch`, { method: 'POST', headers, body, signal: AbortSignal.timeout(10_000) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

async function worker() {
  while (Date.now() - started < durationMs) {
    const { ids, body } = batch();
    for (;;) {
      batchesSent++;
      if (await send(body)) break;
      failedSends++;
      firstFailureAt ??= Date.now();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    ids.forEach((id) => acknowledged.add(id));
    if (killedAt !== null && firstAckAfterKill === null) firstAckAfterKill = Date.now();
  }
}

async function killLater() {
  await new Promise((resolve) => setTimeout(resolve, killAfterMs));
  process.kill(Number(process.env.VICTIM_PID), 'SIGKILL');
  killedAt = Date.now();
  console.log(`killed the tracing-service (pid ${process.env.VICTIM_PID}) with SIGKILL after ${killAfterMs / 1000} s; ${acknowledged.size} calls acknowledged so far`);
}

async function storedIds() {
  const response = await fetch(`${base}/calls/stream_query`, { method: 'POST', headers,
    body: JSON.stringify({ project_id: projectId, columns: ['id'] }) });
  if (response.status !== 200) throw new Error(`calls/stream_query answered ${response.status}: ${await response.text()}`);
  return (await response.text()).split('\n').filter((line) => line).map((line) => JSON.parse(line).id);
}

await Promise.all([killLater(), ...Array.from({ length: workers }, worker)]);
const elapsedS = (Date.now() - started) / 1000;
const stored = await storedIds();
const storedSet = new Set(stored);
const lost = [...acknowledged].filter((id) => !storedSet.has(id)).length;
const duplicated = stored.length - storedSet.size;
const unacknowledged = [...storedSet].filter((id) => !acknowledged.has(id)).length;
console.log(`ingest: ${acknowledged.size} calls acknowledged in ${elapsedS.toFixed(1)} s by ${workers} workers `
  + `(${Math.round(acknowledged.size / elapsedS)} calls/s including the outage); ${batchesSent} sends, ${failedSends} failed and resent`);
console.log(`recovery: first failed send ${firstFailureAt ? firstFailureAt - killedAt : '-'} ms after the kill; `
  + `ingest acknowledged again ${firstAckAfterKill ? firstAckAfterKill - killedAt : 'never'} ms after the kill`);
console.log(`stored: ${stored.length} calls read back; lost (acknowledged, not stored) ${lost}; duplicated ${duplicated}; `
  + `stored but never acknowledged ${unacknowledged}`);
const pass = firstAckAfterKill !== null && lost === 0 && duplicated === 0 && unacknowledged === 0;
console.log(pass ? 'verdict: PASS' : 'verdict: FAIL');
process.exit(pass ? 0 : 1);
