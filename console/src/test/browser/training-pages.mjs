// A person trains a model through the API (as ART does: register, sample rollouts, log, train) and follows it in
// the console by visible text and labels: the model and its reward curve, the job training while the page is open
// (it grows without a reload), the new checkpoint; chats with the new checkpoint in the playground (streamed,
// traced), compares it with the base model, opens the exchange's trace, and finds the tokens on the usage page,
// where a request the gateway refused counts among the errors; then judges the exchanges, trains the model on them
// from the calls table (RL, then SFT), evaluates the base and the trained model alike and compares the two runs.
// Prints one marker per step; screenshots go to the folder in SCREENSHOTS when it is set.
// Usage: node training-pages.mjs <console origin> <API key> <entity> <project> <base model>
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const [origin, apiKey, entity, project, baseModel] = process.argv.slice(2);
const modelName = 'storyteller';
const inferenceName = `wandb-artifact:///${entity}/${project}/${modelName}`;
const shots = process.env.SCREENSHOTS;
const step = (name) => console.log(`STEP ${name}`);
const shot = async (page, name) => shots && page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });

async function callApi(path, body) {
  const response = await fetch(`${origin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Compat-Project': `${entity}/${project}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${path} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}

/** ART's rollouts: sampled completions of one prompt, rewarded by their length and how often they say "girl". */
async function rolloutGroup(prompt, seed) {
  const completion = await callApi('/v1/chat/completions', { model: inferenceName, messages: [{ role: 'user', content: prompt }],
    n: 4, seed, temperature: 1.0, max_tokens: 24, logprobs: true, return_tokens_as_token_ids: true });
  return { trajectories: completion.choices.map((choice) => {
    const text = choice.message.content;
    return { messages_and_choices: [{ role: 'user', content: prompt }, choice],
      reward: text.split('girl').length - 1 + text.length / 100, metrics: { length: text.length } };
  }) };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
try {
  page.setDefaultTimeout(30000);
  page.on('pageerror', (error) => console.log(`PAGE ERROR ${error.message}`));
  page.on('response', async (response) => {
    if (response.status() >= 400) console.log(`HTTP ${response.status()} ${response.url()} ${await response.text()}`);
  });

  // Through the API, as ART would: a model, rollouts of its step 0 logged as train and val metrics.
  const model = await callApi('/v1/preview/models', { entity, project, name: modelName, base_model: baseModel, return_existing: true });
  const groups = [];
  for (const [index, prompt] of ['Once upon a time', 'The little dog', 'One day, Lily'].entries()) groups.push(await rolloutGroup(prompt, 11 + index));
  await callApi(`/v1/preview/models/${model.id}/log`, { split: 'train', trajectory_groups: groups });
  await callApi(`/v1/preview/models/${model.id}/log`, { split: 'val', trajectory_groups: [await rolloutGroup('Tom had a ball', 5)] });
  step('LOGGED');

  await page.goto(`${origin}/`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  await page.goto(`${origin}/#/p/${entity}/${project}/training`);
  const modelRow = page.getByRole('row', { name: new RegExp(modelName) });
  await modelRow.getByRole('cell', { name: baseModel, exact: true }).waitFor();
  await modelRow.getByRole('cell', { name: '0', exact: true }).waitFor();
  await modelRow.getByRole('link', { name: modelName }).click();
  step('MODEL_OPENED');

  const metrics = page.getByRole('region', { name: 'Metrics by step' });
  await metrics.getByRole('img', { name: 'reward by step: train, val' }).waitFor();
  await metrics.getByRole('img', { name: 'reward_std_dev by step: train, val' }).waitFor();
  await metrics.getByRole('img', { name: 'exception_rate by step: train, val' }).waitFor();
  await metrics.getByRole('img', { name: 'length by step: train, val' }).waitFor();
  const checkpoints = page.getByRole('region', { name: 'Checkpoints' });
  await checkpoints.getByRole('row', { name: /^0 .*train\/reward/ }).waitFor();
  await page.getByRole('region', { name: 'Training jobs' }).getByText('No training job yet for this model.').waitFor();
  await shot(page, 'model-logged');
  step('REWARD_CURVE');

  // Training starts while the page is open: it must follow without a reload.
  await page.evaluate(() => { window.stillTheSamePage = true; });
  const job = await callApi('/v1/preview/training-jobs', { model_id: model.id, trajectory_groups: groups,
    experimental_config: { learning_rate: 5e-6 } });
  const jobs = page.getByRole('region', { name: 'Training jobs' });
  await jobs.getByRole('link', { name: job.id.slice(0, 8) }).waitFor();
  await jobs.getByText('Completed').waitFor({ timeout: 180000 });
  await checkpoints.getByRole('row', { name: /^1 .*train\/loss/ }).waitFor();
  const jobSection = page.getByRole('region', { name: 'Job', exact: true });
  await jobSection.getByRole('img', { name: 'loss by gradient step: loss' }).waitFor();
  await jobSection.getByRole('img', { name: 'grad_norm by gradient step: grad_norm' }).waitFor();
  await jobSection.getByRole('img', { name: 'learning_rate by gradient step: learning_rate' }).waitFor();
  await jobSection.getByText(/^Training started on \d+ sequences$/).waitFor();
  await jobSection.getByText('Training ended').waitFor();
  await metrics.getByRole('img', { name: 'reward by step: train, val' }).waitFor();
  if (!(await page.evaluate(() => window.stillTheSamePage))) throw new Error('the page reloaded while the job trained');
  await shot(page, 'model-trained');
  step('TRAINED_LIVE');

  await page.reload();
  await checkpoints.getByRole('row', { name: /^1 / }).waitFor();
  await page.getByRole('region', { name: 'Training jobs' }).getByText('Completed').waitFor();
  step('RELOADED');

  // The playground, from the model page: the new checkpoint answers, streamed and traced.
  await page.getByRole('link', { name: 'Chat with the latest step in the playground' }).click();
  await page.getByLabel('Model', { exact: true }).waitFor();
  if (await page.getByLabel('Model', { exact: true }).inputValue() !== inferenceName) throw new Error('the playground did not pick the model');
  await page.getByLabel('Temperature').fill('0');
  await page.getByLabel('Max tokens').fill('16');
  await page.getByLabel('Seed').fill('7');
  await page.getByLabel('Message').fill('Once upon a time');
  await page.getByRole('button', { name: 'Send' }).click();
  const pane = page.getByRole('region', { name: `Chat with ${inferenceName}` });
  await pane.getByText('Once upon a time').waitFor();
  await pane.getByRole('link', { name: 'View the trace' }).waitFor();
  await pane.getByText(/\d+ prompt \+ \d+ completion tokens/).waitFor();
  const answer = (await pane.locator('li.chat-assistant .chat-text').first().textContent()).trim();
  if (!answer) throw new Error('the checkpoint answered nothing');
  step('CHATTED');

  await page.getByLabel('Compare with').selectOption(baseModel);
  await page.getByLabel('Message').fill('The little dog');
  await page.getByRole('button', { name: 'Send' }).click();
  const basePane = page.getByRole('region', { name: `Chat with ${baseModel}` });
  await basePane.getByRole('link', { name: 'View the trace' }).waitFor();
  await pane.getByRole('link', { name: 'View the trace' }).nth(1).waitFor();
  await shot(page, 'playground-compare');
  step('COMPARED');

  // The settings survive a reload (they live in the URL), and so do the conversations (this tab's session).
  await page.reload();
  if (await page.getByLabel('Compare with').inputValue() !== baseModel) throw new Error('the compared model was lost on reload');
  if (await page.getByLabel('Seed').inputValue() !== '7') throw new Error('the seed was lost on reload');
  await page.getByRole('region', { name: `Chat with ${inferenceName}` }).getByRole('link', { name: 'View the trace' }).first().click();
  await page.getByRole('heading', { level: 2, name: 'weave.completions_create' }).waitFor();
  await page.getByRole('region', { name: 'Chat' }).getByText('Once upon a time').first().waitFor();
  await page.getByRole('region', { name: 'Chat' }).getByText(answer.slice(0, 20)).first().waitFor();
  await shot(page, 'playground-trace');
  step('TRACE_FOUND');

  // Usage arrives through inference.usage, so the page is asked again until it shows; the checkpoint is priced for
  // this project, the base model only by a default price (the test's tracing-service configures one).
  await callApi('/cost/create', { project_id: `${entity}/${project}`,
    costs: { [inferenceName]: { prompt_token_cost: 0.001, completion_token_cost: 0.002 } } });
  await page.getByRole('link', { name: 'Usage', exact: true }).click();
  const usageRow = page.getByRole('region', { name: 'Per model and day' }).getByRole('row', { name: new RegExp(modelName) }).first();
  for (let attempt = 0; ; attempt++) {
    try {
      await usageRow.waitFor({ timeout: 3000 });
      break;
    } catch (notYet) {
      if (attempt >= 20) throw notYet;
      await page.getByRole('button', { name: 'Show' }).click();
    }
  }
  await usageRow.getByRole('cell', { name: /^\$\d/ }).waitFor();
  await page.getByRole('region', { name: 'Per model and day' }).getByRole('row', { name: new RegExp(`^\\S+ ${baseModel} .* \\$\\d[\\d.]*$`) }).waitFor();
  await page.getByRole('img', { name: 'Prompt tokens per day by model' }).waitFor();
  await page.getByRole('img', { name: 'Cost (USD) per day by model' }).waitFor();
  await page.getByRole('img', { name: 'Completion tokens per day by model' }).waitFor();
  await shot(page, 'usage');
  step('USAGE_SEEN');

  // A request the gateway refuses once it knows the project (422: messages is no list) counts among its errors.
  const errorsTotal = page.locator('dl[aria-label="Totals"] dt:text-is("Errors") + dd');
  const errorsBefore = Number((await errorsTotal.textContent()).replace(/\D/g, ''));
  const refused = await fetch(`${origin}/v1/chat/completions`, { method: 'POST', body: JSON.stringify({ model: baseModel, messages: 'hello' }),
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Compat-Project': `${entity}/${project}` } });
  if (refused.status !== 422) throw new Error(`the invalid completion answered ${refused.status}: ${await refused.text()}`);
  for (let attempt = 0; ; attempt++) {
    await page.getByRole('button', { name: 'Show' }).click();
    await errorsTotal.waitFor();
    const errors = Number((await errorsTotal.textContent()).replace(/\D/g, ''));
    if (errors === errorsBefore + 1) break;
    if (errors > errorsBefore + 1 || attempt >= 20) throw new Error(`the usage page counts ${errors} errors, ${errorsBefore} before one refused request`);
    await page.waitForTimeout(1000);
  }
  await page.getByRole('region', { name: 'Per model and day' }).getByRole('row', { name: new RegExp(`^\\S+ ${baseModel} \\d+ [1-9]\\d* `) }).waitFor();
  await shot(page, 'usage-errors');
  step('REFUSAL_COUNTED');

  // The project is the user's own, so the user sets its limits on the same page; a request then counts against
  // them, and its answer carries OpenAI's rate-limit headers.
  const limitsRegion = page.getByRole('region', { name: 'Limits and budgets' });
  await limitsRegion.getByLabel('Requests / min').fill('1000');
  await limitsRegion.getByLabel('Tokens / month').fill('1000000');
  await limitsRegion.getByRole('button', { name: 'Set limits' }).click();
  await page.getByText('The limits of this project are set.').waitFor();
  const limited = await fetch(`${origin}/v1/chat/completions`, { method: 'POST',
    body: JSON.stringify({ model: baseModel, messages: [{ role: 'user', content: 'Once upon a time' }], max_tokens: 2 }),
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Compat-Project': `${entity}/${project}` } });
  if (limited.status !== 200 || limited.headers.get('x-ratelimit-limit-requests') !== '1000'
    || limited.headers.get('x-ratelimit-remaining-requests') !== '999') {
    throw new Error(`the limited request answered ${limited.status} with x-ratelimit-limit-requests ${limited.headers.get('x-ratelimit-limit-requests')}`);
  }
  await page.reload();
  const projectRow = limitsRegion.getByRole('row', { name: /^This project/ });
  await projectRow.getByRole('cell', { name: `1 of ${(1000).toLocaleString()}`, exact: true }).waitFor();
  await projectRow.getByRole('cell', { name: new RegExp(` of ${(1000000).toLocaleString()}$`) }).waitFor();
  await shot(page, 'usage-limits');
  step('LIMITS_SET');

  // The loop: the playground's exchanges, judged with a 👍 and a 👎, become an RL job on the model from the calls
  // table; the third exchange has no reaction and is left out, with the reason shown.
  const completions = (await (await fetch(`${origin}/calls/stream_query`, { method: 'POST',
    headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ project_id: `${entity}/${project}`, filter: { op_names: ['weave.completions_create'] }, sort_by: [{ field: 'started_at', direction: 'asc' }] }),
  })).text()).split('\n').filter(Boolean).map((line) => JSON.parse(line));
  if (completions.length !== 3) throw new Error(`the playground left ${completions.length} completion calls, not 3`);
  for (const [call, emoji] of [[completions[0], '👍'], [completions[1], '👎']]) {
    await callApi('/feedback/create', { project_id: `${entity}/${project}`, weave_ref: `weave:///${entity}/${project}/call/${call.id}`,
      feedback_type: 'wandb.reaction.1', payload: { emoji } });
  }
  const trainPanel = page.getByRole('region', { name: 'Train on the selected calls' });
  const loopJobs = page.getByRole('region', { name: 'Training jobs' });
  /** Ticks the playground's three calls and opens the training panel with this kind, reward and model. */
  const openTrainPanel = async (kind) => {
    await page.goto(`${origin}/#/p/${entity}/${project}/calls?op=weave.completions_create`);
    await page.getByLabel('Select every call on this page').check();
    await page.getByText('3 selected').waitFor();
    await page.getByRole('button', { name: 'Train on selected…' }).click();
    await trainPanel.getByLabel('Training', { exact: true }).selectOption(kind);
    await trainPanel.getByLabel('Reward', { exact: true }).selectOption('reaction');
    await trainPanel.getByLabel('Model', { exact: true }).selectOption(model.id);
  };
  /** Starts the job and waits on the model's page until `jobs` jobs completed and step `jobs` is a checkpoint. */
  const startAndWait = async (jobs) => {
    await trainPanel.getByRole('button', { name: 'Start training' }).click();
    await page.getByRole('region', { name: 'Checkpoints' }).waitFor();
    for (let attempt = 0; (await loopJobs.getByText('Completed').count()) < jobs; attempt++) {
      if (attempt > 180) throw new Error(`job ${jobs} started from the calls did not complete`);
      await page.waitForTimeout(1000);
    }
    await page.getByRole('region', { name: 'Checkpoints' }).getByRole('row', { name: new RegExp(`^${jobs} `) }).waitFor();
  };
  // The same calls put in an annotation queue: what its annotators judged trains from the queue's page too.
  const { id: queueId } = await callApi('/annotation_queues', { project_id: `${entity}/${project}`, name: 'judged answers',
    description: '', scorer_refs: [] });
  await callApi(`/annotation_queues/${queueId}/items`, { project_id: `${entity}/${project}`, call_ids: completions.map((call) => call.id),
    display_fields: [] });
  await page.goto(`${origin}/#/p/${entity}/${project}/queues/${queueId}`);
  await page.getByRole('button', { name: 'Train on this queue\'s calls…' }).click();
  await trainPanel.getByText('Train on 3 selected calls').waitFor();
  await trainPanel.getByLabel('Reward', { exact: true }).selectOption('reaction');
  await trainPanel.getByLabel('Compare', { exact: true }).selectOption('selection');
  await trainPanel.getByRole('button', { name: 'Preview' }).click();
  await trainPanel.getByText('2 trajectories in 1 group').waitFor();
  await trainPanel.getByText('1 selected call left out').waitFor();
  await shot(page, 'queue-train-preview');
  step('TRAIN_FROM_QUEUE');

  await openTrainPanel('rl');
  await trainPanel.getByLabel('Compare', { exact: true }).selectOption('selection');
  await trainPanel.getByRole('button', { name: 'Preview' }).click();
  await trainPanel.getByText('2 trajectories in 1 group').waitFor();
  await trainPanel.getByText('1 selected call left out').waitFor();
  await trainPanel.getByText('it has no 👍 or 👎 reaction').waitFor();
  await shot(page, 'calls-train-preview');
  await startAndWait(2);
  await shot(page, 'calls-trained');
  step('TRAINED_FROM_CALLS');

  // SFT on the answer judged 👍 only: the lines go up as a training file, then an SFT job trains on it.
  await openTrainPanel('sft');
  await trainPanel.getByLabel('Only calls rewarded at least', { exact: true }).fill('1');
  await trainPanel.getByRole('button', { name: 'Preview' }).click();
  await trainPanel.getByText('1 training example').waitFor();
  await trainPanel.getByText('2 selected calls left out').waitFor();
  await trainPanel.getByText('its reward 0.0 is below min_reward 1.0').waitFor();
  await startAndWait(3);
  step('SFT_FROM_CALLS');

  // The loop's last step: the same evaluation of the base model and the trained model (the weave npm SDK asking the
  // gateway for each), then the two runs compared side by side.
  const evaluated = execFileSync('node', ['eval-checkpoints.mjs', `${entity}/${project}`, `${baseModel}=base_model`, `${inferenceName}=trained_model`], {
    env: { ...process.env, WF_TRACE_SERVER_URL: origin, WANDB_API_KEY: apiKey, WEAVE_PRINT_CALL_LINK: 'false', HOME: mkdtempSync(join(tmpdir(), 'weave-home-')) },
    encoding: 'utf8', timeout: 120000,
  });
  if (!evaluated.includes('EVALUATED')) throw new Error(`the evaluation script said: ${evaluated}`);
  await page.getByRole('link', { name: 'Evaluations', exact: true }).click();
  await page.getByText('2 runs').waitFor();
  await page.getByRole('row', { name: /story-eval base_model/ }).getByRole('checkbox').check();
  await page.getByRole('row', { name: /story-eval trained_model/ }).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Compare selected' }).click();
  const evalScores = page.getByRole('region', { name: 'Scores by run' });
  await evalScores.getByRole('columnheader', { name: /^base_model / }).waitFor();
  await evalScores.getByRole('columnheader', { name: /^trained_model / }).waitFor();
  await evalScores.getByRole('row', { name: /^mentions_girl / }).waitFor();
  await evalScores.getByRole('row', { name: /^story_length / }).waitFor();
  await page.getByRole('region', { name: 'Examples' }).getByRole('heading', { name: 'Examples (3)' }).waitFor();
  await shot(page, 'evaluations-base-vs-trained');
  step('EVALUATED_BOTH_STEPS');
} catch (error) {
  await shot(page, 'training-failure');
  throw error;
} finally {
  await browser.close();
}
