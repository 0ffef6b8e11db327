// One real thing per service, over HTTP, with the development key `./platform` printed: what a new user
// does first. Reads the service URLs from the environment (set by .ci/smoke); exits non-zero on the first
// thing that does not work, saying what it sent and what came back.
import http from 'node:http';
import { randomUUID } from 'node:crypto';

const key = process.env.KEY;
const url = {
  tracing: process.env.TRACING_URL,
  inference: process.env.INFERENCE_URL,
  training: process.env.TRAINING_URL,
  automation: process.env.AUTOMATION_URL,
  console: process.env.CONSOLE_URL,
};
const project = `smoke-${Date.now()}`;

// A request with the development key; its answer's text, or an error unless the status is `expected`.
async function send(service, method, path, body, expected = 200, headers = {}) {
  const response = await fetch(url[service] + path, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await response.text();
  if (response.status !== expected) {
    throw new Error(`${method} ${url[service]}${path} answered ${response.status} (expected ${expected}): ${text}`);
  }
  return text;
}

async function call(service, method, path, body, expected = 200, headers = {}) {
  const text = await send(service, method, path, body, expected, headers);
  return text ? JSON.parse(text) : null;
}

function check(condition, message) {
  if (!condition) throw new Error(message);
}

// `node smoke.mjs tracing` runs only the steps whose names start with one of the arguments.
const only = process.argv.slice(2);

async function step(name, action) {
  if (only.length > 0 && !only.some((prefix) => name.startsWith(prefix))) return;
  const started = Date.now();
  await action();
  console.log(`ok   ${name} (${Date.now() - started} ms)`);
}

const entity = 'dev'; // the user `./platform` made the key for

async function eventually(what, probe, seconds = 60) {
  const deadline = Date.now() + seconds * 1000;
  while (!(await probe())) {
    check(Date.now() < deadline, `${what}: not there after ${seconds} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

await step('tracing-service: a call is traced and read back', async () => {
  const id = randomUUID();
  const projectId = `${entity}/${project}`;
  await call('tracing', 'POST', '/call/start', {
    start: { project_id: projectId, id, trace_id: randomUUID(), op_name: 'smoke', started_at: new Date().toISOString(),
      inputs: { question: 'is it up?' }, attributes: {} },
  });
  await call('tracing', 'POST', '/call/end', {
    end: { project_id: projectId, id, ended_at: new Date().toISOString(), output: { answer: 'yes' }, summary: {} },
  });
  const read = await call('tracing', 'POST', '/call/read', { project_id: projectId, id });
  check(read.call?.output?.answer === 'yes' && read.call?.inputs?.question === 'is it up?', `call/read: ${JSON.stringify(read)}`);
});

await step('inference-gateway: a chat completion from stories260K', async () => {
  const completion = await call('inference', 'POST', '/v1/chat/completions', {
    model: 'stories260K', messages: [{ role: 'user', content: 'Once upon a time' }], temperature: 0, max_tokens: 16,
  });
  check(completion.choices?.[0]?.message?.content?.length > 0 && completion.usage?.completion_tokens > 0,
    `completion: ${JSON.stringify(completion)}`);
});

// Not an `inference…` step: .ci/smoke runs those alone while the tracing-service is down.
await step('usage: a completion is counted by the gateway and recorded as a call by the tracing-service', async () => {
  // a project of its own, so that no other completion is counted with it
  const projectId = `${entity}/${project}-usage`;
  const completion = await call('inference', 'POST', '/v1/chat/completions', {
    model: 'stories260K', messages: [{ role: 'user', content: 'Once upon a time' }], max_tokens: 4,
  }, 200, { 'Compat-Project': projectId });
  // both travel through Kafka (inference.usage), so they show within seconds, not at once
  await eventually('the completion in GET /v1/usage', async () => {
    const totals = await call('inference', 'GET', `/v1/usage?project=${projectId}`);
    check(totals.data.length <= 1 && (totals.data[0]?.requests ?? 1) === 1, `GET /v1/usage: ${JSON.stringify(totals)}`);
    return totals.data[0]?.model === 'stories260K';
  });
  await eventually(`the tracing-service's call of ${completion.id}`, async () => {
    const lines = await send('tracing', 'POST', '/calls/stream_query', { project_id: projectId });
    const calls = lines.split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line));
    return calls.some((found) => found.op_name === 'inference.chat.completions'
      && found.attributes?.request_id === completion.id && found.summary?.usage?.stories260K?.requests === 1);
  });
});

await step('training-service: register a model, log trajectories, train to training_ended', async () => {
  const model = await call('training', 'POST', '/v1/preview/models',
    { project, name: 'smoke-teller', base_model: 'stories260K', return_existing: true });
  const inferenceName = `wandb-artifact:///${model.entity}/${project}/smoke-teller`;
  const groups = [];
  for (const prompt of ['Once upon a time', 'The little dog']) {
    // ART samples through the base URL it trains with.
    const sampled = await call('training', 'POST', '/v1/chat/completions', {
      model: inferenceName, messages: [{ role: 'user', content: prompt }], n: 4, seed: 7, temperature: 1.0, max_tokens: 24,
      logprobs: true, return_tokens_as_token_ids: true,
    });
    groups.push({
      trajectories: sampled.choices.map((choice) => ({
        messages_and_choices: [{ role: 'user', content: prompt }, choice],
        reward: choice.message.content.split('dog').length - 1 + choice.message.content.length / 100,
        metrics: { length: choice.message.content.length },
      })),
    });
  }
  await call('training', 'POST', `/v1/preview/models/${model.id}/log`, { split: 'train', trajectory_groups: groups });
  const job = await call('training', 'POST', '/v1/preview/training-jobs', { model_id: model.id, trajectory_groups: groups });
  const deadline = Date.now() + 180_000;
  let after = null;
  for (;;) {
    check(Date.now() < deadline, `job ${job.id} reached no terminal event within 3 minutes`);
    const page = await call('training', 'GET',
      `/v1/preview/training-jobs/${job.id}/events?limit=100${after ? `&after=${after}` : ''}`);
    for (const event of page.data) {
      after = event.id;
      check(event.type !== 'training_failed', `training failed: ${JSON.stringify(event)}`);
      if (event.type === 'training_ended') {
        // The new step is served at once by every gateway replica the console spreads requests over.
        for (let attempt = 0; attempt < 4; attempt += 1) {
          const answer = await call('console', 'POST', '/v1/chat/completions', {
            model: `${inferenceName}:step1`, messages: [{ role: 'user', content: 'Once upon a time' }], max_tokens: 8,
          });
          check(answer.choices?.[0]?.message?.content, `${inferenceName}:step1 answered ${JSON.stringify(answer)}`);
        }
        return;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
});

await step('automation-service: a webhook\'s test button reaches a local receiver', async () => {
  const received = [];
  const receiver = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const secret = `smoke_${Date.now()}`;
    await call('automation', 'PUT', `/secrets/${entity}/${secret}`, { value: 'whsec_c21va2Utc2lnbmluZy1zZWNyZXQ=' });
    const webhook = await call('automation', 'POST', '/webhooks',
      { entity, name: `smoke-${project}`, url: `http://127.0.0.1:${receiver.address().port}/hook`, secret }, 201);
    const result = await call('automation', 'POST', `/webhooks/${webhook.id}/test`, { payload: '{"hello":"smoke"}' });
    check(result.status_code === 200 && result.body.includes('received'), `test result: ${JSON.stringify(result)}`);
    check(received.length === 1 && received[0].headers['webhook-signature'], `receiver saw: ${JSON.stringify(received)}`);
    await call('automation', 'DELETE', `/webhooks/${webhook.id}`, undefined, 204);
    await call('automation', 'DELETE', `/secrets/${entity}/${secret}`, undefined, 204);
  } finally {
    receiver.close();
  }
});

await step('console: the pages and every API on one origin', async () => {
  const page = await fetch(url.console + '/', { signal: AbortSignal.timeout(30_000) });
  const html = await page.text();
  check(page.status === 200 && (page.headers.get('content-type') ?? '').includes('text/html') && html.includes('<script'),
    `GET / answered ${page.status}: ${html.slice(0, 200)}`);
  const projects = await call('console', 'GET', '/projects');
  check(projects.projects?.some((p) => p.project === project), `the console's /projects: ${JSON.stringify(projects)}`);
  const models = await call('console', 'GET', '/v1/models');
  check(models.data?.some((m) => m.id === 'stories260K'), `the console's /v1/models: ${JSON.stringify(models)}`);
});
