// A project's evaluation runs (#/p/<entity>/<project>/evaluations): every `Evaluation.evaluate` call, whether the
// SDK's Evaluation or the v2 REST routes logged it, with its evaluation, model, dataset, scorer summaries, tokens and latency,
// filterable by evaluation, model and dataset; and two or more runs compared side by side
// (…/evaluations/compare?runs=<id>,<id>): each scorer's summary per run with the difference, and every example with
// each run's output and scores, sortable by the difference and filterable to the examples where the runs disagree;
// and a leaderboard: the models run on one dataset ranked by a figure of their latest runs.
// Both read the tracing-service's public APIs (calls/stream_query, eval_results/query).
import { h, replace, state, formatTime, formatLatency, formatNumber } from '../shared/dom.js';
import { api, parseRef } from '../shared/api.js';
import { href, navigate, projectPath, callHref } from '../shared/router.js';
import { statusBadge, usageTotals } from '../shared/status.js';

const EVALUATE_OP = 'Evaluation.evaluate';
const RUNS_LIMIT = 500;

/** An object or op ref as its name; a value that is no ref as short JSON. */
function refName(value) {
  const ref = parseRef(value);
  if (ref) return ref.name;
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value).slice(0, 60);
}

/** The numbers and booleans (as 1/0) inside an object, as [`key.path`, value] pairs, keys in `skip` left out. */
function numericLeaves(object, skip = []) {
  const leaves = [];
  const walk = (value, path) => {
    if (typeof value === 'number' || typeof value === 'boolean') leaves.push([path.join('.'), Number(value)]);
    else if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, inner] of Object.entries(value)) walk(inner, [...path, key]);
    }
  };
  for (const [key, value] of Object.entries(object && typeof object === 'object' ? object : {})) {
    if (!skip.includes(key)) walk(value, [key]);
  }
  return leaves;
}

/**
 * The numbers of a run's summary, as `scorer.path` → value (model latency apart): the SDK's Evaluation returns its
 * summary as the run's output; a run of the v2 REST routes has the means the server computed as its output and the
 * figures its client gave in the call's summary (beside what every call's summary holds).
 */
function scorerFigures(run) {
  const figures = numericLeaves(run.output, ['model_latency']);
  const named = new Set(figures.map(([name]) => name));
  const given = numericLeaves(run.summary, ['model_latency', 'weave', 'usage', 'status_counts']).filter(([name]) => !named.has(name));
  return [...figures, ...given];
}

const formatFigure = (value) => (value === null || value === undefined || Number.isNaN(value) ? '—'
  : Number.isInteger(value) ? String(value) : value.toFixed(3));

export async function renderEvaluations(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  replace(view, h('h1', {}, 'Evaluations'), state('Loading the evaluation runs…'));
  let runs;
  try {
    runs = await api.lines('/calls/stream_query', {
      project_id: projectId, limit: RUNS_LIMIT, sort_by: [{ field: 'started_at', direction: 'desc' }],
      filter: { op_names: [`weave:///${projectId}/op/${EVALUATE_OP}:*`, EVALUATE_OP] },
    });
  } catch (error) {
    if (isCurrent()) replace(view, h('h1', {}, 'Evaluations'), state(`The evaluation runs could not be loaded: ${error.message}`, 'error'));
    return;
  }
  if (!isCurrent()) return;
  if (runs.length === 0) {
    replace(view, h('h1', {}, 'Evaluations'), state(`No evaluation ran in ${projectId} yet. Run a weave.Evaluation (or POST /v2/…/evaluation_runs) and it shows up here.`));
    return;
  }
  const evaluationOf = (run) => refName(run.inputs?.self ?? run.inputs?.this);
  const modelOf = (run) => refName(run.inputs?.model);
  const datasets = await evaluationDatasets(runs);
  if (!isCurrent()) return;
  const datasetOf = (run) => datasets.get(run.inputs?.self ?? run.inputs?.this) ?? '';
  const choice = (id, label, values, selected) => h('div', { class: 'field' }, h('label', { for: id }, label),
    h('select', { id, name: id }, h('option', { value: '' }, 'Any'), [...new Set(values)].sort().map((value) =>
      h('option', { value, selected: value === selected }, value))));
  const evaluationFilter = choice('filter-evaluation', 'Evaluation', runs.map(evaluationOf), params.get('evaluation'));
  const modelFilter = choice('filter-model', 'Model', runs.map(modelOf), params.get('model'));
  const datasetFilter = choice('filter-dataset', 'Dataset', runs.map(datasetOf).filter(Boolean), params.get('dataset'));
  const shown = runs.filter((run) => (!params.get('evaluation') || evaluationOf(run) === params.get('evaluation'))
    && (!params.get('model') || modelOf(run) === params.get('model'))
    && (!params.get('dataset') || datasetOf(run) === params.get('dataset')));
  const path = projectPath(entity, project, 'evaluations');
  const filters = h('form', { class: 'filters', role: 'search', onsubmit: (event) => {
    event.preventDefault();
    navigate(path, { evaluation: evaluationFilter.querySelector('select').value, model: modelFilter.querySelector('select').value,
      dataset: datasetFilter.querySelector('select').value });
  } }, evaluationFilter, modelFilter, datasetFilter, h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Apply filters')));

  const selected = new Set();
  const compare = h('button', { type: 'button', disabled: true, onclick: () => navigate(`${path}/compare`, { runs: [...selected].join(',') }) },
    'Compare selected');
  const count = h('span', { class: 'selection-count', 'aria-live': 'polite' });
  const changed = () => {
    compare.disabled = selected.size < 2;
    replace(count, selected.size === 0 ? '' : `${selected.size} selected`);
  };
  const table = h('table', { class: 'grid evaluations' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'select' }),
      ['Evaluation', 'Model', 'Dataset', 'Status', 'Scores', 'Tokens', 'Latency', 'Started'].map((label) =>
        h('th', { scope: 'col', class: label === 'Latency' || label === 'Tokens' ? 'num' : null }, label)))),
    h('tbody', {}, shown.map((run) => h('tr', {},
      h('td', { class: 'select' }, h('input', { type: 'checkbox', 'aria-label': `Select the run of ${modelOf(run)} ${run.id.slice(-8)}`,
        onchange: (event) => { if (event.target.checked) selected.add(run.id); else selected.delete(run.id); changed(); } })),
      h('td', {}, h('a', { href: callHref(entity, project, run.trace_id, run.id) }, evaluationOf(run) || run.display_name || 'Evaluation')),
      h('td', {}, modelOf(run)),
      h('td', {}, datasetOf(run)),
      h('td', {}, statusBadge(run.summary?.weave?.status)),
      h('td', {}, h('ul', { class: 'figures' }, scorerFigures(run).map(([name, value]) => h('li', {}, h('span', { class: 'figure-name' }, name), ` ${formatFigure(value)}`)))),
      // The run's summary holds the usage of its calls: the models' tokens (and an LLM judge's).
      h('td', { class: 'num' }, formatNumber(usageTotals(run.summary).tokens)),
      h('td', { class: 'num' }, formatLatency(run.summary?.weave?.latency_ms)),
      h('td', {}, formatTime(run.started_at))))));
  replace(view, h('h1', {}, 'Evaluations'), filters,
    h('div', { class: 'selection-bar' }, compare, count, h('span', { class: 'total' }, `${shown.length} run${shown.length === 1 ? '' : 's'}`)),
    shown.length === 0 ? state('No run matches these filters.') : table,
    leaderboard(runs, datasetOf, modelOf, params, path));
}

/** Each evaluation ref of the runs → the name of its dataset (read from the Evaluation objects in one batch). */
async function evaluationDatasets(runs) {
  const refs = [...new Set(runs.map((run) => run.inputs?.self ?? run.inputs?.this).filter((ref) => parseRef(ref)))];
  const datasets = new Map();
  if (refs.length === 0) return datasets;
  try {
    const { vals } = await api.post('/refs/read_batch', { refs });
    refs.forEach((ref, index) => datasets.set(ref, refName(vals[index]?.dataset)));
  } catch (error) {
    // Without the objects the runs still show; only their dataset is blank.
  }
  return datasets;
}

/**
 * Models ranked by one figure on one dataset (of any evaluation of it): each model's latest run, the highest first
 * (the lowest first for a figure where less is better, as the person chooses).
 */
function leaderboard(runs, datasetOf, modelOf, params, path) {
  const datasets = [...new Set(runs.map(datasetOf))].sort();
  const dataset = datasets.includes(params.get('board')) ? params.get('board') : datasets[0];
  const ofDataset = runs.filter((run) => datasetOf(run) === dataset);
  const figures = [...new Set(ofDataset.flatMap((run) => scorerFigures(run).map(([name]) => name)))];
  const figure = figures.includes(params.get('by')) ? params.get('by') : figures[0];
  const lowerFirst = params.get('order') === 'asc';
  const latest = new Map();
  for (const run of ofDataset) if (!latest.has(modelOf(run))) latest.set(modelOf(run), run); // runs come newest first
  const ranked = [...latest].map(([model, run]) => [model, scorerFigures(run).find(([name]) => name === figure)?.[1] ?? null])
    .sort((a, b) => (a[1] === null) - (b[1] === null) || (lowerFirst ? a[1] - b[1] : b[1] - a[1]));
  const pick = (id, label, values, chosen) => h('div', { class: 'field' }, h('label', { for: id }, label),
    h('select', { id }, values.map(([value, text]) => h('option', { value, selected: value === chosen }, text))));
  const form = h('form', { class: 'filters', onsubmit: (event) => {
    event.preventDefault();
    const value = (id) => form.querySelector(`#${id}`).value;
    navigate(path, { ...Object.fromEntries(params), board: value('board-dataset'), by: value('board-figure'), order: value('board-order') });
  } },
  pick('board-dataset', 'Dataset', datasets.map((name) => [name, name || '(unknown)']), dataset),
  pick('board-figure', 'Ranked by', figures.map((name) => [name, name]), figure),
  pick('board-order', 'Best is', [['desc', 'highest'], ['asc', 'lowest']], lowerFirst ? 'asc' : 'desc'),
  h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Rank')));
  return h('section', { 'aria-label': 'Leaderboard' }, h('h2', {}, 'Leaderboard'), form,
    ranked.length === 0 || !figure ? state('No figure to rank by.') : h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, ['#', 'Model', figure].map((label, index) => h('th', { scope: 'col', class: index !== 1 ? 'num' : null }, label)))),
      h('tbody', {}, ranked.map(([model, value], index) => h('tr', {}, h('td', { class: 'num' }, String(index + 1)), h('td', {}, model),
        h('td', { class: 'num' }, formatFigure(value)))))));
}

/** The value of one statistic of a scorer summary (a pass rate for booleans, the mean for numbers). */
const statValue = (stat) => (stat ? (stat.value_type === 'binary' ? stat.pass_rate : stat.numeric_mean) : null);
const statKey = (stat) => (stat.path ? `${stat.scorer_key}.${stat.path}` : stat.scorer_key);

/** A trial's scores flattened to `scorer.path` → number (booleans 1/0). */
const trialScores = (trial) => Object.fromEntries(numericLeaves(trial?.scores));

const short = (value) => {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 157)}…` : text;
};

export async function renderEvaluationCompare(view, [entity, project], params, isCurrent) {
  const runIds = (params.get('runs') ?? '').split(',').filter(Boolean);
  replace(view, h('h1', {}, 'Compare evaluations'), state('Loading the results…'));
  if (runIds.length < 2) {
    replace(view, h('h1', {}, 'Compare evaluations'), state('Pick two or more runs on the Evaluations page to compare them.'));
    return;
  }
  let results;
  try {
    results = await api.post(`/v2/${encodeURIComponent(entity)}/${encodeURIComponent(project)}/eval_results/query`, {
      evaluation_call_ids: runIds, include_summary: true, include_raw_data_rows: true, resolve_row_refs: true, require_intersection: false,
    });
  } catch (error) {
    if (isCurrent()) replace(view, h('h1', {}, 'Compare evaluations'), state(`The results could not be loaded: ${error.message}`, 'error'));
    return;
  }
  if (!isCurrent()) return;
  const runs = runIds.map((id) => results.summary.evaluations.find((evaluation) => evaluation.evaluation_call_id === id)
    ?? { evaluation_call_id: id, scorer_stats: [], trial_count: 0 });
  const runLabel = (run) => `${refName(run.model_ref) || 'model'} (${run.evaluation_call_id.slice(-8)})`;
  const statKeys = [...new Set(runs.flatMap((run) => run.scorer_stats.map(statKey)))];
  const statOf = (run, key) => statValue(run.scorer_stats.find((stat) => statKey(stat) === key));
  const difference = (values) => (values.length >= 2 && values.every((value) => value !== null && value !== undefined)
    ? values[values.length - 1] - values[0] : null);

  const summary = h('section', { 'aria-label': 'Scores by run' }, h('h2', {}, 'Scores'),
    h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Scorer'), runs.map((run) => h('th', { scope: 'col', class: 'num' }, runLabel(run))),
        h('th', { scope: 'col', class: 'num' }, 'Difference'))),
      h('tbody', {},
        statKeys.map((key) => {
          const values = runs.map((run) => statOf(run, key));
          const delta = difference(values);
          return h('tr', {}, h('th', { scope: 'row' }, key), values.map((value) => h('td', { class: 'num' }, formatFigure(value))),
            h('td', { class: `num ${delta > 0 ? 'better' : delta < 0 ? 'worse' : ''}` }, delta === null ? '—' : `${delta > 0 ? '+' : ''}${formatFigure(delta)}`));
        }),
        h('tr', {}, h('th', { scope: 'row' }, 'Examples'), runs.map((run) => h('td', { class: 'num' }, String(run.trial_count))), h('td')),
        h('tr', {}, h('th', { scope: 'row' }, 'Tokens'), runs.map((run) => h('td', { class: 'num' }, run.predict_total_tokens ?? '—')), h('td')))));

  const sortKey = params.get('sort') ?? '';
  const onlyDisagreements = params.get('disagree') === '1';
  const rows = results.rows.map((row) => {
    const trials = runIds.map((id) => row.evaluations.find((evaluation) => evaluation.evaluation_call_id === id)?.trials?.[0] ?? null);
    const scores = trials.map(trialScores);
    const outputs = trials.map((trial) => JSON.stringify(trial?.model_output ?? null));
    const disagree = new Set(outputs).size > 1 || statKeys.some((key) => new Set(scores.map((s) => s[key])).size > 1);
    return { row, trials, scores, disagree, delta: sortKey ? difference(scores.map((s) => s[sortKey] ?? null)) : null };
  }).filter((entry) => !onlyDisagreements || entry.disagree);
  if (sortKey) rows.sort((a, b) => Math.abs(b.delta ?? -1) - Math.abs(a.delta ?? -1));

  const path = projectPath(entity, project, 'evaluations', 'compare');
  const sortSelect = h('select', { id: 'compare-sort' }, h('option', { value: '' }, 'Dataset order'),
    statKeys.map((key) => h('option', { value: key, selected: key === sortKey }, `Largest difference in ${key}`)));
  const disagreeBox = h('input', { id: 'compare-disagree', type: 'checkbox', checked: onlyDisagreements });
  const controls = h('form', { class: 'filters', onsubmit: (event) => {
    event.preventDefault();
    navigate(path, { runs: runIds.join(','), sort: sortSelect.value, disagree: disagreeBox.checked ? '1' : '' });
  } },
  h('div', { class: 'field' }, h('label', { for: 'compare-sort' }, 'Order'), sortSelect),
  h('div', { class: 'field checkbox' }, h('label', { for: 'compare-disagree' }, 'Only where the runs disagree'), disagreeBox),
  h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Show')));

  const traceOf = (index) => results.summary.evaluations.find((evaluation) => evaluation.evaluation_call_id === runIds[index])?.trace_id;
  const examples = h('section', { 'aria-label': 'Examples' }, h('h2', {}, `Examples (${rows.length})`), controls,
    rows.length === 0 ? state(onlyDisagreements ? 'The runs agree on every example.' : 'No example.') : h('table', { class: 'grid compare' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Example'), runs.map((run) => h('th', { scope: 'col' }, runLabel(run))))),
      h('tbody', {}, rows.map((entry) => h('tr', { class: entry.disagree ? 'disagree' : null },
        h('td', {}, h('code', {}, short(entry.row.raw_data_row ?? entry.row.row_digest))),
        entry.trials.map((trial, index) => h('td', {}, trial === null ? '—' : [
          h('div', { class: 'model-output' }, short(trial.model_output)),
          h('ul', { class: 'figures' }, Object.entries(entry.scores[index]).map(([name, value]) => h('li', {}, h('span', { class: 'figure-name' }, name), ` ${formatFigure(value)}`))),
          trial.predict_call_id && traceOf(index)
            ? h('a', { href: href(projectPath(entity, project, 'traces', traceOf(index)), { call: trial.predict_call_id }) }, 'Open the call') : null,
        ])))))));
  replace(view, h('h1', {}, 'Compare evaluations'),
    h('p', {}, h('a', { href: href(projectPath(entity, project, 'evaluations')) }, 'Back to the evaluation runs')),
    summary, examples);
}
