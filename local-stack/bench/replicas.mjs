// Load and fault generator of bench/replicas.sh, in its own process, against a platform started with
// `--replicas 2`. Through the console's one origin (the edge that spreads each API over the replicas) it drives
// at once: trace ingest (`call/upsert_batch` and `/v2/{entity}/{project}/calls/complete`), object versions that
// fire two webhook automations to a receiver on 127.0.0.1, chat completions with `Compat-Project` (usage) and
// ART-style training jobs; meanwhile it SIGKILLs one replica of each service in turn (the stack restarts it).
// Then it prints each check as a figure and a verdict. Clients behave like the SDKs: a write the edge answers
// 502 (no replica took it) or that fails on the way is sent again, with the same ids.
// Env: CONSOLE_URL, KEY, LAUNCHER_PID, {TRACING,INFERENCE,TRAINING,AUTOMATION}_PORT (replica k: port + 100·k),
// PG_PORT (for the outbox check with psql); DURATION_S (80), KILL_FIRST_S (10), KILL_EVERY_S (15),
// INGEST_WORKERS (2), BATCH (10 calls), OBJECTS_PER_S (5), TRAINING_JOBS (2), KILL_RUNNING_JOB (1: the training
// kill waits for a running job and kills the replica running it), CANCELS (4 running jobs cancelled after the load),
// LOG_DIR (the services' logs, where each trainer says it stopped a cancelled job).
import http from 'node:http';
import fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { execFileSync } from 'node:child_process';

const edge = process.env.CONSOLE_URL;
const key = process.env.KEY;
const launcher = Number(process.env.LAUNCHER_PID);
const durationMs = Number(process.env.DURATION_S ?? 80) * 1000;
const killFirstMs = Number(process.env.KILL_FIRST_S ?? 10) * 1000;
const killEveryMs = Number(process.env.KILL_EVERY_S ?? 15) * 1000;
const ingestWorkers = Number(process.env.INGEST_WORKERS ?? 2);
const callsPerBatch = Number(process.env.BATCH ?? 10);
const objectsPerS = Number(process.env.OBJECTS_PER_S ?? 5);
const trainingJobs = Number(process.env.TRAINING_JOBS ?? 2);
const killRunningJob = process.env.KILL_RUNNING_JOB === '1';
const services = ['tracing', 'inference', 'training', 'automation'];
const modules = { tracing: 'tracing-service', inference: 'inference-gateway', training: 'training-service', automation: 'automation-service' };
const replicaUrls = Object.fromEntries(services.map((s) => [s, [0, 1].map((k) => `http://localhost:${Number(process.env[`${s.toUpperCase()}_PORT`]) + 100 * k}`)]));
const entity = 'dev';
const project = `replicas-${Date.now()}`;
const projectId = `${entity}/${project}`;
const started = Date.now();
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const running = () => Date.now() - started < durationMs;
const phase = (name) => console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] ${name}`);
const authorization = { Authorization: `Bearer ${key}` };

/** Requests not yet answered, with where they stand: a run that waits names what it waits on. */
const inFlight = new Map();
let requestCount = 0;

async function request(base, method, path, body, headers = {}) {
  const id = ++requestCount;
  const entry = { at: Date.now(), what: `${method} ${base}${path}`, stage: 'sent' };
  inFlight.set(id, entry);
  try {
    const response = await fetch(base + path, {
      method, headers: { ...authorization, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body), signal: AbortSignal.timeout(120_000),
    });
    entry.stage = `head ${response.status} came, reading the body`;
    const text = await response.text();
    return { status: response.status, text, json: () => JSON.parse(text) };
  } finally {
    inFlight.delete(id);
  }
}

/** Every 30 s past the run's duration, the requests that have waited longer than 10 s. */
setInterval(() => {
  if (running()) return;
  const now = Date.now();
  for (const { at, what, stage } of inFlight.values()) {
    if (now - at > 10_000) phase(`waiting ${((now - at) / 1000).toFixed(0)} s on ${what} (${stage})`);
  }
}, 30_000).unref();

async function call(base, method, path, body, expected = 200, headers = {}) {
  const answer = await request(base, method, path, body, headers);
  if (answer.status !== expected) throw new Error(`${method} ${path} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer.text ? answer.json() : null;
}

/**
 * Sends until the edge answers `expected` (a refused or broken request is sent again, like an SDK), counting resends.
 * A client error other than 429 is not sent again (an SDK does not either): it ends the run with its answer.
 */
async function untilAcknowledged(stats, send, expected = 200) {
  for (;;) {
    let answer;
    try {
      answer = await send();
    } catch (error) {
      stats.resent++;
      stats.statuses[error.name] = (stats.statuses[error.name] ?? 0) + 1;
      await sleep(200);
      continue;
    }
    if (answer.status === expected) return answer;
    if (answer.status >= 400 && answer.status < 500 && answer.status !== 429) {
      throw new Error(`answered ${answer.status}, which is not sent again: ${answer.text.slice(0, 300)}`);
    }
    stats.resent++;
    stats.statuses[answer.status] = (stats.statuses[answer.status] ?? 0) + 1;
    await sleep(200);
  }
}

/** The longest time between two acknowledgements of one workload: how long it waited on a dead replica. */
function gapMeter() {
  let last = null;
  let longest = 0;
  return { tick() { const now = Date.now(); if (last !== null) longest = Math.max(longest, now - last); last = now; }, longest: () => longest };
}

// --- the kills ----------------------------------------------------------------------------------------------
function childrenOf(pid) {
  return fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name)).filter((name) => {
    try { return Number(fs.readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === pid; } catch { return false; }
  }).map(Number);
}

function replicaPid(service, index) {
  const port = Number(process.env[`${service.toUpperCase()}_PORT`]) + 100 * index;
  return childrenOf(launcher).find((pid) => {
    try {
      const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(`${modules[service]}/target/quarkus-app`) && environ.includes(`QUARKUS_HTTP_PORT=${port}`);
    } catch { return false; }
  });
}

function cpuTicks(pid) {
  try { const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); return Number(fields[11]) + Number(fields[12]); } catch { return -1; }
}

/**
 * The training replica running a job: once a job has started and not ended, the replica that spends more CPU over a
 * second (the embedded trainer's gradient steps). Waits up to 20 s for a running job; else the usual replica.
 */
async function busyTrainingReplica(fallback) {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && !training.jobs.some((job) => job.startedAt && !job.events.training_ended)) await sleep(200);
  const pids = [0, 1].map((index) => replicaPid('training', index));
  if (pids.includes(undefined) || !training.jobs.some((job) => job.startedAt && !job.events.training_ended)) return fallback;
  const before = pids.map(cpuTicks);
  await sleep(1000);
  const spent = pids.map((pid, k) => cpuTicks(pid) - before[k]);
  training.killedWhileRunning = true;
  return spent[0] >= spent[1] ? 0 : 1;
}

const kills = [];
async function killInTurn() {
  await sleep(killFirstMs);
  for (const [i, service] of services.entries()) {
    if (!running()) return;
    // the second replica of one service, the first of the next; with KILL_RUNNING_JOB, the training replica running a job
    const index = service === 'training' && killRunningJob ? await busyTrainingReplica(i % 2) : i % 2;
    const pid = replicaPid(service, index);
    if (pid === undefined) { kills.push({ service, index, error: 'no process' }); continue; }
    process.kill(pid, 'SIGKILL');
    kills.push({ service, index, pid, at: Date.now() - started });
    console.log(`[${((Date.now() - started) / 1000).toFixed(1)} s] SIGKILL ${modules[service]} replica ${index + 1} (pid ${pid})`);
    await sleep(killEveryMs);
  }
}

// --- trace ingest, read-your-writes -------------------------------------------------------------------------
const ingest = { acknowledged: new Set(), resent: 0, statuses: {}, checked: 0, missing: 0, replicaReads: 0, replicaDown: 0, readsResent: 0, gap: gapMeter(), batches: 0 };

function ingestBatch(complete) {
  const traceId = randomUUID();
  const ids = [];
  const now = new Date().toISOString();
  const parts = [];
  for (let i = 0; i < callsPerBatch; i++) {
    const id = randomUUID();
    ids.push(id);
    if (complete) {
      parts.push({ project_id: projectId, id, trace_id: traceId, op_name: 'replicas.complete', started_at: now, ended_at: now,
        attributes: {}, inputs: { i }, output: { ok: true }, summary: {} });
    } else {
      parts.push({ mode: 'start', req: { start: { project_id: projectId, id, trace_id: traceId, op_name: 'replicas.upsert', started_at: now, attributes: {}, inputs: { i } } } });
      parts.push({ mode: 'end', req: { end: { project_id: projectId, id, ended_at: now, output: { ok: true }, summary: {} } } });
    }
  }
  return { ids, path: complete ? `/v2/${entity}/${project}/calls/complete` : '/call/upsert_batch', body: JSON.stringify({ batch: parts }) };
}

async function idsAt(base, ids) {
  const answer = await request(base, 'POST', '/calls/stream_query', { project_id: projectId, filter: { call_ids: ids }, columns: ['id'] });
  if (answer.status !== 200) throw new Error(`calls/stream_query answered ${answer.status}`);
  return new Set(answer.text.split('\n').filter(Boolean).map((line) => JSON.parse(line).id));
}

async function readAgainUntilAnswered(read) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await read();
    } catch (error) {
      ingest.readsResent++;
      if (attempt === 10) throw error;
      await sleep(200);
    }
  }
}

async function ingestWorker(worker) {
  for (let n = 0; running(); n++) {
    const { ids, path, body } = ingestBatch((n + worker) % 2 === 1);
    await untilAcknowledged(ingest, () => request(edge, 'POST', path, body));
    ingest.batches++;
    ids.forEach((id) => ingest.acknowledged.add(id));
    ingest.gap.tick();
    // Read at once, no sleep: through the edge, and from each replica (the one that did not take the write among them).
    for (const base of [edge, ...replicaUrls.tracing]) {
      let found;
      try {
        // a read the edge could not answer (502: the replica it chose died under it) is sent again, as an SDK does
        found = base === edge ? await readAgainUntilAnswered(() => idsAt(base, ids)) : await idsAt(base, ids);
      } catch {
        ingest.replicaDown++;
        continue;
      }
      if (base !== edge) ingest.replicaReads++;
      ingest.checked += ids.length;
      ingest.missing += ids.filter((id) => !found.has(id)).length;
    }
  }
}

// --- object versions → webhooks ---------------------------------------------------------------------------
const deliveries = new Map(); // `${object}|${automation}` → [{webhookId, answered}]
const FAIL_EVERY = 10; // the receiver fails the first attempt of every 10th object
let receiverFailures = 0;
const receiver = http.createServer((incoming, response) => {
  let body = '';
  incoming.on('data', (chunk) => { body += chunk; });
  incoming.on('end', () => {
    let payload;
    try { payload = JSON.parse(body); } catch { payload = {}; }
    const slot = `${payload.object_id}|${payload.automation}`;
    if (!deliveries.has(slot)) deliveries.set(slot, []);
    const seen = deliveries.get(slot);
    const index = Number(String(payload.object_id).split('-').pop());
    const fail = seen.length === 0 && index % FAIL_EVERY === 0;
    seen.push({ webhookId: incoming.headers['webhook-id'], answered: fail ? 500 : 200, at: Date.now() });
    if (fail) receiverFailures++;
    response.writeHead(fail ? 500 : 200, { 'Content-Type': 'application/json' }).end('{}');
  });
});
receiver.keepAliveTimeout = 60_000;
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));

const objects = { acknowledged: new Map(), resent: 0, statuses: {}, gap: gapMeter() };
async function objectWorker() {
  for (let i = 0; running(); i++) {
    const objectId = `obj-${i}`;
    const due = Date.now() + 1000 / objectsPerS;
    await untilAcknowledged(objects, () => request(edge, 'POST', '/obj/create',
      { obj: { project_id: projectId, object_id: objectId, val: { object_id: objectId, n: i } } }));
    objects.acknowledged.set(objectId, Date.now());
    objects.gap.tick();
    await sleep(Math.max(0, due - Date.now()));
  }
}

// --- chat completions with Compat-Project (usage) -------------------------------------------------------------
const usageProject = `${projectId}-usage`;
const chat = { answered: 0, failed: 0, statuses: {}, gap: gapMeter() };
async function chatWorker() {
  while (running()) {
    try {
      const answer = await request(edge, 'POST', '/v1/chat/completions',
        { model: 'stories260K', messages: [{ role: 'user', content: 'Once upon a time' }], max_tokens: 4 }, { 'Compat-Project': usageProject });
      if (answer.status === 200) { chat.answered++; chat.gap.tick(); } else { chat.failed++; chat.statuses[answer.status] = (chat.statuses[answer.status] ?? 0) + 1; }
    } catch (error) {
      chat.failed++;
      chat.statuses[error.name] = (chat.statuses[error.name] ?? 0) + 1;
    }
  }
}

// --- ART-style training jobs ----------------------------------------------------------------------------------
const training = { jobs: [], resent: 0, statuses: {}, served: [] };
async function trainingWorker() {
  const model = (await untilAcknowledged(training, () => request(edge, 'POST', '/v1/preview/models',
    { project, name: 'replica-teller', base_model: 'stories260K', return_existing: true }))).json();
  const inferenceName = `wandb-artifact:///${model.entity}/${project}/replica-teller`;
  for (let j = 0; j < trainingJobs; j++) {
    const groups = [];
    for (const prompt of ['Once upon a time', 'The little dog']) {
      const sampled = (await untilAcknowledged(training, () => request(edge, 'POST', '/v1/chat/completions', {
        model: inferenceName, messages: [{ role: 'user', content: prompt }], n: 4, seed: 7 + j, temperature: 1.0, max_tokens: 16,
        logprobs: true, return_tokens_as_token_ids: true,
      }))).json();
      groups.push({ trajectories: sampled.choices.map((choice) => ({
        messages_and_choices: [{ role: 'user', content: prompt }, choice],
        reward: choice.message.content.split('dog').length - 1 + choice.message.content.length / 100 }))});
    }
    // A job is created once: a failed create is sent again only when no replica took it (502 from the edge).
    const created = await untilAcknowledged(training, () => request(edge, 'POST', '/v1/preview/training-jobs', { model_id: model.id, trajectory_groups: groups }));
    const job = { id: created.json().id, createdAt: Date.now(), events: {} };
    training.jobs.push(job);
    let after = null;
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline && !job.events.training_ended && !job.events.training_failed) {
      try {
        const page = await call(edge, 'GET', `/v1/preview/training-jobs/${job.id}/events?limit=100${after ? `&after=${after}` : ''}`);
        for (const event of page.data) {
          after = event.id;
          job.events[event.type] = (job.events[event.type] ?? 0) + 1;
          if (event.type === 'training_started') job.startedAt = Date.now();
        }
      } catch { /* a replica restarting: ask again */ }
      await sleep(500);
    }
    job.endedAt = Date.now();
  }
  // Every checkpoint is served by both gateway replicas, each asked directly.
  // A replica still restarting after its kill is asked again for up to 2 minutes.
  for (const base of replicaUrls.inference) {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const answer = await request(base, 'POST', '/v1/chat/completions',
        { model: inferenceName, messages: [{ role: 'user', content: 'Once' }], max_tokens: 4 }).catch((error) => ({ status: error.name, text: '' }));
      if (answer.status === 200) { training.served.push({ base }); break; }
      if (typeof answer.status === 'number') { training.notServed = `${base} answered ${answer.status}: ${answer.text.slice(0, 200)}`; }
      await sleep(1000);
    }
  }
}

// --- the run --------------------------------------------------------------------------------------------------
const secret = `replicas_${Date.now()}`;
await call(edge, 'PUT', `/secrets/${entity}/${secret}`, { value: 'whsec_cmVwbGljYXMtc2lnbmluZy1zZWNyZXQ=' });
const webhook = await call(edge, 'POST', '/webhooks', { entity, name: project, url: `http://127.0.0.1:${receiver.address().port}/hook`, secret }, 201);
const automations = [];
for (const name of ['a', 'b']) {
  automations.push(await call(edge, 'POST', '/automations', {
    name: `${project}-${name}`, scope: { type: 'PROJECT', project: projectId }, event: { type: 'CREATE_ARTIFACT', filter: null },
    action: { type: 'WEBHOOK', webhook_id: webhook.id, payload_template: { object_id: '${artifact_collection_name}', automation: name } },
  }, 201));
}
console.log(`project ${projectId}; edge ${edge}; replicas ${JSON.stringify(replicaUrls)}; ${automations.length} automations on CREATE_ARTIFACT`);

// The project's first call is written with upsert_batch: a project whose first write is calls/complete is in Weave's
// "complete" mode, which refuses the older SDKs' upsert_batch (400), and the workers use both.
{
  const { ids, path, body } = ingestBatch(false);
  await untilAcknowledged(ingest, () => request(edge, 'POST', path, body));
  ids.forEach((id) => ingest.acknowledged.add(id));
  ingest.batches++;
}
const done = (name) => () => phase(`${name} done`);
await Promise.all([killInTurn().then(done('kills')), objectWorker().then(done('objects')), chatWorker().then(done('chat')),
  trainingWorker().then(done('training')), ...Array.from({ length: ingestWorkers }, (_, w) => ingestWorker(w).then(done(`ingest ${w + 1}`)))]);
const runS = (Date.now() - started) / 1000;
phase('load and kills done; waiting for the deliveries');

// Deliveries: wait for every (object, automation) pair, past the delivery lease (60 s) if a dead replica held one.
const expectedSlots = [...objects.acknowledged.keys()].flatMap((id) => ['a', 'b'].map((a) => `${id}|${a}`));
const drainDeadline = Date.now() + Number(process.env.DRAIN_S ?? 90) * 1000;
while (Date.now() < drainDeadline && expectedSlots.some((slot) => !deliveries.get(slot)?.some((d) => d.answered === 200))) await sleep(250);
await sleep(2000); // late duplicates
let lost = 0; let duplicated = 0; let redelivered = 0; let redeliveryIdChanged = 0; let longestDelivery = 0;
for (const slot of expectedSlots) {
  const seen = deliveries.get(slot) ?? [];
  const successes = seen.filter((d) => d.answered === 200).length;
  if (successes === 0) lost++;
  if (successes > 1) duplicated++;
  if (seen.length > 1 && seen[0].answered !== 200) redelivered++;
  if (new Set(seen.map((d) => d.webhookId)).size > 1) redeliveryIdChanged++;
  const firstOk = seen.find((d) => d.answered === 200);
  if (firstOk) longestDelivery = Math.max(longestDelivery, firstOk.at - objects.acknowledged.get(slot.split('|')[0]));
}
const unexpectedSlots = [...deliveries.keys()].filter((slot) => !expectedSlots.includes(slot)).length;

phase('deliveries settled; waiting for the usage records');
// Usage: counted once per answered request (it travels through Kafka: wait for it to settle).
let usageRequests = null;
const usageDeadline = Date.now() + 60_000;
while (Date.now() < usageDeadline) {
  const totals = await call(edge, 'GET', `/v1/usage?project=${encodeURIComponent(usageProject)}`).catch(() => null);
  usageRequests = totals?.data?.reduce((sum, row) => sum + (row.requests ?? 0), 0) ?? usageRequests;
  if (usageRequests === chat.answered) break;
  await sleep(1000);
}

// Everything acknowledged is stored once.
const stored = (await request(edge, 'POST', '/calls/stream_query', { project_id: projectId, columns: ['id'] })).text
  .split('\n').filter(Boolean).map((line) => JSON.parse(line).id);
const storedSet = new Set(stored);
const ingestLost = [...ingest.acknowledged].filter((id) => !storedSet.has(id)).length;

// The outbox: one automation event per object version (psql on the PATH).
let outbox = 'not measured (no psql)';
let outboxPass = true;
try {
  const rows = execFileSync('psql', ['-h', '127.0.0.1', '-p', process.env.PG_PORT, '-U', 'postgres', '-d', 'postgres', '-At', '-F', ',', '-c',
    `SELECT count(*), count(DISTINCT collection) FROM automation.events WHERE entity = '${entity}' AND project = '${project}' AND event_type = 'CREATE_ARTIFACT'`],
  { env: { ...process.env, PGPASSWORD: 'postgres' }, encoding: 'utf8' }).trim().split(',').map(Number);
  outbox = `${rows[0]} events for ${rows[1]} objects (${objects.acknowledged.size} acknowledged)`;
  outboxPass = rows[0] === rows[1] && rows[1] === objects.acknowledged.size;
} catch (error) { outbox = `not measured (${error.message.split('\n')[0]})`; }

phase('the cancel check');
// A cancel reaches the training replica running the job, whichever it is: each cancelled job's trainer logs that it
// stopped. With one consumer group for the orders, half of them went to the replica that did not run the job.
const cancels = await cancelRunningJobs();

phase('the limits check');
// The gateway's limits across its replicas: a project's requests per minute, set through the edge, are admitted
// exactly once between both replicas (40 requests at once, alternating replicas, against a limit of 25).
const limits = await limitsAcrossReplicas();

async function limitsAcrossReplicas() {
  const limited = `${entity}/limits-${Date.now()}`;
  const limit = 25;
  const second = new Date().getUTCSeconds();
  if (second > 40) await sleep((61 - second) * 1000); // the 40 in one UTC minute, after the wait below
  await call(edge, 'PUT', `/v1/limits?project=${encodeURIComponent(limited)}`, { requests_per_minute: limit });
  await sleep(6000); // the replica that did not take the PUT reads the limits within gateway.limits.refresh (5 s)
  const body = { model: 'stories260K', messages: [{ role: 'user', content: 'Once upon a time' }], max_tokens: 1 };
  const answers = await Promise.all(Array.from({ length: 40 }, (_, i) =>
    request(replicaUrls.inference[i % 2], 'POST', '/v1/chat/completions', body, { 'Compat-Project': limited })
      .catch((error) => ({ status: error.name }))));
  const byStatus = {};
  for (const answer of answers) byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
  const admitted = byStatus[200] ?? 0;
  const admittedBy = [0, 1].map((k) => answers.filter((answer, i) => i % 2 === k && answer.status === 200).length);
  return {
    figure: `40 requests at once through both gateway replicas against ${limit} requests per minute: admitted ${admitted} `
      + `(${admittedBy.join(' + ')}), refused with 429 ${byStatus[429] ?? 0}, other ${40 - admitted - (byStatus[429] ?? 0)}`,
    pass: admitted === limit && (byStatus[429] ?? 0) === 40 - limit,
  };
}

async function cancelRunningJobs() {
  const count = Number(process.env.CANCELS ?? 4);
  const logDir = process.env.LOG_DIR;
  // A model per job: records are keyed by model, so each job's request and cancel fall on partitions of their own.
  const groupsFor = async (name) => {
    const model = await call(edge, 'POST', '/v1/preview/models', { project, name, base_model: 'stories260K', return_existing: true });
    const sampled = await call(edge, 'POST', '/v1/chat/completions', {
      model: `wandb-artifact:///${model.entity}/${project}/${name}`, messages: [{ role: 'user', content: 'Once upon a time' }],
      n: 4, seed: 11, temperature: 1.0, max_tokens: 16, logprobs: true, return_tokens_as_token_ids: true,
    });
    const group = { trajectories: sampled.choices.map((choice, i) => ({ messages_and_choices: [{ role: 'user', content: 'Once upon a time' }, choice], reward: i })) };
    // Long enough to be cancelled while it trains: 60 gradient steps.
    return { model, groups: Array.from({ length: 60 }, () => group) };
  };
  const logsSaying = (text) => fs.readdirSync(logDir).filter((name) => name.startsWith('training-service') && name.endsWith('.log'))
    .filter((name) => fs.readFileSync(`${logDir}/${name}`, 'utf8').includes(text));
  const results = [];
  for (let k = 0; k < count; k++) {
    const { model, groups } = await groupsFor(`cancel-teller-${k}`);
    const job = await call(edge, 'POST', '/v1/preview/training-jobs', { model_id: model.id, trajectory_groups: groups });
    const startDeadline = Date.now() + 120_000;
    let started = false;
    while (!started && Date.now() < startDeadline) {
      const events = await call(edge, 'GET', `/v1/preview/training-jobs/${job.id}/events?limit=100`);
      started = events.data.some((event) => event.type === 'gradient_step');
      if (!started) await sleep(200);
    }
    const cancelledAt = Date.now();
    await call(edge, 'POST', `/v1/preview/training-jobs/${job.id}/cancel`);
    let stoppedBy = [];
    let toldTo = [];
    while ((stoppedBy.length === 0 || toldTo.length < 2) && Date.now() - cancelledAt < 30_000) {
      await sleep(250);
      stoppedBy = logDir ? logsSaying(`Stopped training job ${job.id}: it was cancelled`) : [];
      toldTo = logDir ? logsSaying(`Training job ${job.id} is cancelled`) : [];
    }
    results.push({ id: job.id, started, stoppedBy, toldTo, stoppedAfter: stoppedBy.length ? Date.now() - cancelledAt : null });
  }
  // Each order reaches both replicas, and the one running the job stops. (In one consumer group shared by the
  // replicas, a cancel reached the right one only when both groups happened to give it the same partitions.)
  const stopped = results.filter((r) => r.started && r.stoppedBy.length === 1 && r.toldTo.length === 2);
  const byLog = {};
  stopped.forEach((r) => { byLog[r.stoppedBy[0]] = (byLog[r.stoppedBy[0]] ?? 0) + 1; });
  return {
    figure: logDir ? `${results.length} running jobs cancelled through the edge: ${stopped.length} told to both replicas and stopped by the one running them `
      + `within ${Math.max(0, ...stopped.map((r) => r.stoppedAfter))} ms (${Object.entries(byLog).map(([log, n]) => `${log}: ${n}`).join(', ')})`
      + `${results.length > stopped.length ? `; not stopped: ${results.filter((r) => !stopped.includes(r)).map((r) => r.id.slice(0, 8) + (r.started ? ` (told to ${r.toldTo.length}, stopped by ${r.stoppedBy.length})` : ' (never trained)')).join(', ')}` : ''}`
      : 'not run (LOG_DIR unset)',
    pass: !logDir || stopped.length === results.length,
  };
}

const fmtStatuses = (s) => Object.entries(s).map(([k, v]) => `${k}×${v}`).join(' ') || 'none';
const jobsOk = training.jobs.length === trainingJobs && training.jobs.every((j) => j.events.training_started === 1 && j.events.training_ended === 1 && !j.events.training_failed);
const servedOk = training.served.length === 2;
const checks = [
  ['kills', `${kills.filter((k) => k.pid).length} of 4 services had a replica SIGKILLed: ${kills.map((k) => `${k.service}#${k.index + 1}@${(k.at / 1000).toFixed(0)}s`).join(', ')}`, kills.filter((k) => k.pid).length === 4],
  ['ingest', `${ingest.acknowledged.size} calls acknowledged in ${ingest.batches} batches over ${runS.toFixed(0)} s (upsert_batch and calls/complete); resent ${ingest.resent} (${fmtStatuses(ingest.statuses)}); stored ${stored.length}, lost ${ingestLost}, duplicated ${stored.length - storedSet.size}`, ingestLost === 0 && stored.length === storedSet.size && storedSet.size === ingest.acknowledged.size],
  ['read-your-writes', `${ingest.checked} call reads at once after the acknowledgement (edge + each replica: ${ingest.replicaReads} replica reads, ${ingest.replicaDown} skipped on a down replica; ${ingest.readsResent} edge reads sent again after a 502): missing ${ingest.missing}`, ingest.missing === 0],
  ['webhooks', `${objects.acknowledged.size} objects × ${automations.length} automations = ${expectedSlots.length} deliveries expected: lost ${lost}, duplicated without a receiver failure ${duplicated}, unexpected ${unexpectedSlots}; receiver failed ${receiverFailures} first attempts, redelivered ${redelivered}, redeliveries with another webhook-id ${redeliveryIdChanged}; object resends ${objects.resent} (${fmtStatuses(objects.statuses)})`, lost === 0 && duplicated === 0 && unexpectedSlots === 0 && redelivered === receiverFailures && redeliveryIdChanged === 0],
  ['training', `${training.jobs.length} jobs: ${training.jobs.map((j) => `${j.id.slice(0, 8)} ${JSON.stringify(j.events)} in ${((j.endedAt - j.createdAt) / 1000).toFixed(0)} s`).join('; ')}; resent ${training.resent}; ${training.killedWhileRunning ? 'the replica running a job was killed' : 'the training kill did not aim at a running job'}`, jobsOk],
  ['checkpoints', `the trained model answered by ${training.served.length} of 2 gateway replicas (${training.served.map((s) => s.base).join(', ')})${training.notServed ? `; last refusal: ${training.notServed}` : ''}`, servedOk],
  ['usage', `${chat.answered} completions answered (${chat.failed} failed: ${fmtStatuses(chat.statuses)}); usage counts ${usageRequests} requests`, usageRequests === chat.answered],
  ['outbox', outbox, outboxPass],
  ['cancel', cancels.figure, cancels.pass],
  ['limits', limits.figure, limits.pass],
  ['longest wait', `ingest ${ingest.gap.longest()} ms, objects ${objects.gap.longest()} ms, chat ${chat.gap.longest()} ms, object → webhook ${longestDelivery} ms (delivery lease 60 s, training heartbeat lease 60 s)`, Math.max(ingest.gap.longest(), objects.gap.longest(), chat.gap.longest(), longestDelivery) <= 60_000],
];
for (const [name, figure, pass] of checks) console.log(`${pass ? 'ok  ' : 'FAIL'} ${name}: ${figure}`);
const pass = checks.every(([, , ok]) => ok);
console.log(pass ? 'verdict: PASS' : 'verdict: FAIL');
receiver.close();
process.exit(pass ? 0 : 1);
