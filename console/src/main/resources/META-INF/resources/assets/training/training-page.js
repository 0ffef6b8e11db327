// A project's trained models (#/p/<entity>/<project>/training) and one model (…/training/<model id>?job=<job id>):
// its metrics by step and split (from `log` and the trainer, stored on the checkpoints), its checkpoints, its jobs,
// and the selected job's gradient steps and events. The page asks again while it is shown (every 2 s while a job
// of the model is queued or running) and the charts and tables grow in place, without a reload.
import { h, replace, state, formatTime, formatLatency } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { href, projectPath } from '../shared/router.js';
import { ChartGrid, formatMetric } from './chart-grid.js';

const POLL_MS = 2000;
const IDLE_POLL_MS = 10000;
const PAGE_LIMIT = 100;
/** The metrics ART users look at first; the rest follow by name. */
const FIRST_METRICS = ['reward', 'reward_std_dev', 'exception_rate'];
const FIRST_SPLITS = ['train', 'val'];
const FIRST_STEP_VALUES = ['loss', 'grad_norm', 'learning_rate'];
const UNFINISHED = new Set(['QUEUED', 'RUNNING']);
const JOB_STATUS = {
  QUEUED: ['Queued', 'running'], RUNNING: ['Running', 'running'], COMPLETED: ['Completed', 'success'],
  FAILED: ['Failed', 'error'], CANCELLED: ['Cancelled', 'descendant_error'],
};

/** Every item of a cursor-paginated training API list (`after` = the last id while `has_more`). */
async function everything(path, query = {}) {
  const items = [];
  let after = null;
  for (;;) {
    const params = new URLSearchParams({ ...query, limit: String(PAGE_LIMIT) });
    if (after) params.set('after', after);
    const page = await api.get(`${path}?${params}`);
    items.push(...page.data);
    if (!page.has_more || !page.last_id) return items;
    after = page.last_id;
  }
}

export function projectModels(entity, project) {
  return everything('/v1/preview/models', { entity, project });
}

export async function renderModels(view, [entity, project], params, isCurrent) {
  replace(view, h('h1', {}, 'Training'), state('Loading the models…'));
  const models = await projectModels(entity, project);
  if (!isCurrent()) return;
  replace(view, h('h1', {}, 'Training'), models.length === 0
    ? state(`No model is registered in ${entity}/${project}. Register one with ART (or POST /v1/preview/models) and train it; it shows up here.`)
    : h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, ['Model', 'Base model', 'Latest step', 'Registered']
        .map((label) => h('th', { scope: 'col', class: label === 'Latest step' ? 'num' : null }, label)))),
      h('tbody', {}, models.map((model) => h('tr', {},
        h('td', {}, h('a', { href: href(projectPath(entity, project, 'training', model.id)) }, model.name)),
        h('td', {}, model.base_model),
        h('td', { class: 'num' }, model.latest_step ?? ''),
        h('td', {}, formatTime(model.created_at)))))));
}

export async function renderModel(view, [entity, project, modelId], params, isCurrent) {
  replace(view, h('h1', {}, 'Model'), state('Loading the model…'));
  const model = (await projectModels(entity, project)).find((candidate) => candidate.id === modelId);
  if (!isCurrent()) return;
  if (!model) {
    replace(view, h('h1', {}, 'Model'), state(`No model ${modelId} in ${entity}/${project} (it may have been deleted).`, 'error'),
      h('a', { href: href(projectPath(entity, project, 'training')) }, 'Back to the models'));
    return;
  }
  const inferenceName = `wandb-artifact:///${model.entity}/${model.project}/${model.name}`;
  const metricsBox = h('div', { class: 'chart-grid' });
  const stepsBox = h('div', { class: 'chart-grid' });
  const checkpointsBox = h('div', { class: 'table-wrap' });
  const jobsBox = h('div', { class: 'table-wrap' });
  const jobBox = h('div', {});
  const liveBox = h('p', { class: 'live', role: 'status' });
  const section = (id, title, ...content) => h('section', { class: 'card', 'aria-labelledby': id }, h('h2', { id }, title), content);
  replace(view,
    h('h1', {}, `Model: ${model.name}`),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Base model'), h('dd', {}, model.base_model),
      h('dt', {}, 'Inference name'), h('dd', { class: 'mono' }, inferenceName),
      h('dt', {}, 'Registered'), h('dd', {}, formatTime(model.created_at))),
    h('p', {}, h('a', { href: href(projectPath(entity, project, 'playground'), { model: inferenceName }) }, 'Chat with the latest step in the playground')),
    liveBox,
    section('training-metrics', 'Metrics by step', metricsBox),
    section('training-checkpoints', 'Checkpoints', checkpointsBox),
    section('training-jobs', 'Training jobs', jobsBox),
    section('training-job', 'Job', jobBox, stepsBox));

  const metricCharts = new ChartGrid(metricsBox, { xName: 'step' });
  const stepCharts = new ChartGrid(stepsBox, { xName: 'gradient step' });
  let events = [];
  let shownJobId = null;

  const refresh = async () => {
    const [checkpoints, jobs] = await Promise.all([
      everything(`/v1/preview/models/${encodeURIComponent(modelId)}/checkpoints`, { order: 'asc' }),
      everything(`/v1/preview/models/${encodeURIComponent(modelId)}/training-jobs`, { order: 'desc' }),
    ]);
    const job = jobs.find((candidate) => candidate.id === params.get('job')) ?? jobs[0];
    if (job && job.id !== shownJobId) {
      shownJobId = job.id;
      events = [];
      stepCharts.dispose();
      replace(stepsBox);
    }
    if (job) {
      const after = events.length ? { after: events[events.length - 1].id } : {};
      events = events.concat(await eventsAfter(job.id, after));
    }
    if (!isCurrent()) return false;
    const metrics = metricSeries(checkpoints);
    if (metrics.length === 0) replace(metricsBox, state('No metrics yet: they appear when `log` is called or a job trains a step.'));
    else if (!metricsBox.querySelector('.chart')) replace(metricsBox);
    metricCharts.update(metrics);
    // Tables are rebuilt only when what they show changed, so keyboard focus stays where it is between updates.
    whenChanged(checkpointsBox, checkpoints, () => checkpointTable(checkpoints));
    whenChanged(jobsBox, jobs, () => (jobs.length === 0 ? state('No training job yet for this model.')
      : jobTable(jobs, job, (id) => href(projectPath(entity, project, 'training', modelId), { job: id }))));
    whenChanged(jobBox, [job, events.length], () => renderJob(jobBox, stepsBox, stepCharts, job, events));
    const training = jobs.some((candidate) => UNFINISHED.has(candidate.status));
    replace(liveBox, training ? 'A job is training: the charts and tables update every few seconds.' : '');
    return training;
  };

  // Asks again while the page is shown: often while a job is queued or running, now and then otherwise (a job
  // may be created while someone looks).
  let training = await refresh();
  while (isCurrent()) {
    await new Promise((resolve) => setTimeout(resolve, training ? POLL_MS : IDLE_POLL_MS));
    if (!isCurrent()) break;
    try {
      training = await refresh();
    } catch (error) {
      if (isCurrent()) replace(liveBox, state(`Updating failed (${error.message}); retrying.`, 'error'));
    }
  }
}

const shown = new WeakMap();

function whenChanged(box, data, build) {
  const signature = JSON.stringify(data);
  if (shown.get(box) === signature) return;
  shown.set(box, signature);
  const built = build();
  if (built) replace(box, built);
}

function eventsAfter(jobId, after) {
  return everything(`/v1/preview/training-jobs/${encodeURIComponent(jobId)}/events`, after);
}

/** One chart per metric name ("train/reward" → chart "reward", series "train"), its splits side by side. */
function metricSeries(checkpoints) {
  const byName = new Map();
  for (const checkpoint of checkpoints) {
    for (const [key, value] of Object.entries(checkpoint.metrics ?? {})) {
      const slash = key.indexOf('/');
      const split = slash < 0 ? 'value' : key.slice(0, slash);
      const name = slash < 0 ? key : key.slice(slash + 1);
      if (!byName.has(name)) byName.set(name, new Map());
      const splits = byName.get(name);
      if (!splits.has(split)) splits.set(split, []);
      splits.get(split).push([checkpoint.step, value]);
    }
  }
  return ordered([...byName.keys()], FIRST_METRICS).map((name) => ({
    name,
    series: ordered([...byName.get(name).keys()], FIRST_SPLITS).map((split) => ({ name: split, points: byName.get(name).get(split) })),
  }));
}

/** Each gradient step's numeric values as charts by step. */
function gradientSeries(events) {
  const steps = events.filter((event) => event.type === 'gradient_step');
  const names = new Set();
  steps.forEach((event) => Object.entries(event.data ?? {}).forEach(([key, value]) => {
    if (key !== 'step' && typeof value === 'number') names.add(key);
  }));
  return ordered([...names], FIRST_STEP_VALUES).map((name) => ({
    name,
    series: [{ name, points: steps.filter((event) => typeof event.data?.[name] === 'number')
      .map((event, index) => [event.data.step ?? index + 1, event.data[name]]) }],
  }));
}

function ordered(names, first) {
  return [...first.filter((name) => names.includes(name)), ...names.filter((name) => !first.includes(name)).sort()];
}

function checkpointTable(checkpoints) {
  return h('table', { class: 'grid checkpoints' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, 'Step'), h('th', { scope: 'col' }, 'Metrics'),
      h('th', { scope: 'col' }, 'Saved'))),
    h('tbody', {}, [...checkpoints].reverse().map((checkpoint) => h('tr', {},
      h('td', { class: 'num' }, String(checkpoint.step)),
      h('td', {}, Object.keys(checkpoint.metrics ?? {}).length === 0 ? h('span', { class: 'muted' }, 'none')
        : h('ul', { class: 'metric-list' }, Object.entries(checkpoint.metrics).sort(([a], [b]) => a.localeCompare(b))
          .map(([key, value]) => h('li', {}, h('span', { class: 'metric-name' }, key), ' ', formatMetric(value))))),
      h('td', {}, formatTime(checkpoint.created_at))))));
}

export function jobStatus(status) {
  const [label, colour] = JOB_STATUS[status] ?? [status, 'unknown'];
  return h('span', { class: `status status-${colour}` }, label);
}

function duration(job) {
  if (!job.training_start) return '';
  const end = job.training_end ? Date.parse(job.training_end) : Date.now();
  return formatLatency(end - Date.parse(job.training_start));
}

function jobTable(jobs, selected, jobHref) {
  return h('table', { class: 'grid jobs' },
    h('thead', {}, h('tr', {}, ['Job', 'Status', 'Created', 'Duration'].map((label) =>
      h('th', { scope: 'col', class: label === 'Duration' ? 'num' : null }, label)))),
    h('tbody', {}, jobs.map((job) => h('tr', { class: job.id === selected?.id ? 'selected' : null },
      h('td', {}, h('a', { href: jobHref(job.id), class: 'mono', 'aria-current': job.id === selected?.id ? 'true' : null }, job.id.slice(0, 8))),
      h('td', {}, jobStatus(job.status), job.error_message ? h('div', { class: 'state-error' }, job.error_message) : null),
      h('td', {}, formatTime(job.created_at)),
      h('td', { class: 'num' }, duration(job))))));
}

const EVENT_LABELS = { training_started: 'Training started', gradient_step: 'Gradient step', training_ended: 'Training ended',
  training_failed: 'Training failed', heartbeat: 'Heartbeat' };

function eventText(event) {
  const data = event.data ?? {};
  switch (event.type) {
    case 'training_started': return `Training started on ${data.num_sequences ?? '?'} sequences`;
    case 'gradient_step': return `Gradient step ${data.step ?? ''}${typeof data.loss === 'number' ? `: loss ${formatMetric(data.loss)}` : ''}`;
    case 'training_failed': return `Training failed: ${data.error_message ?? ''}`;
    default: return EVENT_LABELS[event.type] ?? event.type;
  }
}

function renderJob(jobBox, stepsBox, stepCharts, job, events) {
  if (!job) {
    replace(jobBox, state('Select a job to see its gradient steps and events.'));
    return;
  }
  const started = events.length ? Date.parse(events[0].created_at) : null;
  replace(jobBox,
    h('p', {}, h('span', { class: 'mono' }, job.id), ' ', jobStatus(job.status), ' ', duration(job) && `for ${duration(job)}`),
    h('h3', {}, 'Events'),
    events.length === 0 ? state(job.status === 'QUEUED' ? 'Queued: waiting for a trainer.' : 'No events yet.')
      : h('ol', { class: 'event-timeline', 'aria-label': 'Events of the job' }, events.map((event) => h('li', { class: `event event-${event.type}` },
        h('time', { datetime: event.created_at, title: formatTime(event.created_at) },
          started === null ? '' : `+${formatLatency(Date.parse(event.created_at) - started)}`),
        h('span', {}, eventText(event))))),
    h('h3', {}, 'Gradient steps'));
  const series = gradientSeries(events);
  if (series.length === 0 && !stepsBox.querySelector('.chart')) replace(stepsBox, state('No gradient step yet.'));
  else if (series.length && !stepsBox.querySelector('.chart')) replace(stepsBox);
  stepCharts.update(series);
}
