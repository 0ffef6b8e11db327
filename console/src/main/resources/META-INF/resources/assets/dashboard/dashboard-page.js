// A project's dashboard (#/p/<entity>/<project>/dashboard?range=24h&split=op) from calls/stats: calls, errors and
// latency (p50, p95, p99) over time for the project's traces or split by op, and tokens and cost split by model, for
// a chosen range; a click on a point (or a totals row's link) opens the calls of that bucket (or range).
import * as echarts from '/webjars/echarts/5.3.1/dist/echarts.esm.min.js';
import { h, replace, state, formatNumber, formatLatency, formatCost, datetimeLocal } from '../shared/dom.js';
import { api, opShortName } from '../shared/api.js';
import { href, navigate, projectPath } from '../shared/router.js';

const RANGES = [['1h', 'Last hour', 3600], ['24h', 'Last 24 hours', 86400], ['7d', 'Last 7 days', 7 * 86400], ['30d', 'Last 30 days', 30 * 86400]];
const MOST_OPS = 6;
const CALL_METRICS = [{ metric: 'call_count', aggregations: ['sum'] }, { metric: 'error_count', aggregations: ['sum'] },
  { metric: 'latency_ms', aggregations: [], percentiles: [50, 95, 99] }];
const USAGE_METRICS = [{ metric: 'total_tokens', aggregations: ['sum'] }, { metric: 'total_cost', aggregations: ['sum'] }];

/** A bucket's length in words: 5 min, 1 h, 1 day. */
function bucketLength(seconds) {
  if (seconds % 86400 === 0) return `${seconds / 86400} day${seconds === 86400 ? '' : 's'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

function chart(container, title, label, series, { stack = false, onPoint } = {}) {
  const box = h('div', { class: 'chart', role: 'img', 'aria-label': label });
  container.append(h('figure', { class: 'chart-card' }, h('figcaption', {}, title), box));
  const instance = echarts.init(box, null, { renderer: 'svg' });
  instance.setOption({
    animation: false,
    grid: { left: 64, right: 16, top: 28, bottom: 30 },
    legend: { top: 0, type: 'scroll' },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'time' },
    yAxis: { type: 'value' },
    series: series.map((one) => ({ name: one.name, type: stack ? 'bar' : 'line', stack: stack ? 'all' : undefined, showSymbol: true,
      data: one.points, meta: one.meta })),
  });
  if (onPoint) instance.on('click', (event) => onPoint(series[event.seriesIndex], event.value[0]));
}

export async function renderDashboard(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const range = RANGES.find(([key]) => key === params.get('range')) ?? RANGES[1];
  const split = params.get('split') === 'op' ? 'op' : '';
  const path = projectPath(entity, project, 'dashboard');
  const rangeSelect = h('select', { id: 'dashboard-range' }, RANGES.map(([key, label]) => h('option', { value: key, selected: key === range[0] }, label)));
  const splitSelect = h('select', { id: 'dashboard-split' }, h('option', { value: '' }, 'Traces'), h('option', { value: 'op', selected: split === 'op' }, 'Calls by op'));
  const controls = h('form', { class: 'filters', onsubmit: (event) => {
    event.preventDefault();
    navigate(path, { range: rangeSelect.value, split: splitSelect.value });
  } }, h('div', { class: 'field' }, h('label', { for: 'dashboard-range' }, 'Range'), rangeSelect),
  h('div', { class: 'field' }, h('label', { for: 'dashboard-split' }, 'Show'), splitSelect),
  h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Show')));
  replace(view, h('h1', {}, 'Dashboard'), controls, state('Loading the statistics…'));

  const end = Date.now();
  const start = end - range[2] * 1000;
  const span = { project_id: projectId, start: new Date(start).toISOString(), end: new Date(end).toISOString(), timezone: 'UTC' };
  // Roots only: a trace's root holds the usage of its calls (the SDKs sum it up the tree), so counting every call
  // would count a completion once per ancestor. Asked beside the call statistics, not after them.
  const usageAnswer = api.post('/calls/stats', { ...span, usage_metrics: USAGE_METRICS, filter: { trace_roots_only: true } })
    .catch(() => ({ usage_buckets: [] }));
  let groups;
  try {
    if (split === 'op') {
      const { op_names: names } = await api.post('/calls/op_names', { project_id: projectId });
      const byShort = new Map();
      for (const name of names) byShort.set(opShortName(name), [...(byShort.get(opShortName(name)) ?? []), name]);
      const answers = await Promise.all([...byShort].map(async ([op, opNames]) => ({ name: op, op,
        stats: await api.post('/calls/stats', { ...span, call_metrics: CALL_METRICS, filter: { op_names: opNames } }) })));
      const counted = answers.map((group) => ({ ...group, total: group.stats.call_buckets.reduce((n, bucket) => n + bucket.sum_call_count, 0) }))
        .filter((group) => group.total > 0).sort((a, b) => b.total - a.total).slice(0, MOST_OPS);
      groups = counted;
    } else {
      groups = [{ name: 'traces', op: '', stats: await api.post('/calls/stats', { ...span, call_metrics: CALL_METRICS, filter: { trace_roots_only: true } }) }];
    }
  } catch (error) {
    if (isCurrent()) replace(view, h('h1', {}, 'Dashboard'), controls, state(`The statistics could not be loaded: ${error.message}`, 'error'));
    return;
  }
  const usage = await usageAnswer;
  if (!isCurrent()) return;

  const at = (bucket) => Date.parse(bucket.timestamp);
  const granularity = (groups[0]?.stats.granularity ?? 3600) * 1000;
  const openCalls = (group, from, to) => navigate(projectPath(entity, project, 'calls'),
    { op: group?.op || '', from: datetimeLocal(from), to: datetimeLocal(to) });
  const onPoint = (series, time) => openCalls(series.meta, time, time + granularity);
  const callSeries = (metric) => groups.map((group) => ({ name: group.name, meta: group,
    points: group.stats.call_buckets.map((bucket) => [at(bucket), bucket[metric] ?? null]) }));
  const latencySeries = split === 'op'
    ? groups.map((group) => ({ name: `${group.name} p95`, meta: group, points: group.stats.call_buckets.map((bucket) => [at(bucket), bucket.p95_latency_ms]) }))
    : ['p50', 'p95', 'p99'].map((p) => ({ name: p, meta: groups[0], points: groups[0].stats.call_buckets.map((bucket) => [at(bucket), bucket[`${p}_latency_ms`]]) }));
  const models = [...new Set(usage.usage_buckets.map((bucket) => bucket.model))];
  const usageSeries = (metric) => models.map((model) => ({ name: model, points: usage.usage_buckets
    .filter((bucket) => bucket.model === model).map((bucket) => [at(bucket), bucket[metric] ?? 0]) }));

  const charts = h('div', { class: 'chart-grid' });
  const what = split === 'op' ? 'by op' : 'traces';
  const totals = h('section', { 'aria-label': 'Totals' }, h('h2', {}, 'Totals'), groups.length === 0 ? state('No call in this range.')
    : h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, [split === 'op' ? 'Op' : '', 'Calls', 'Errors', 'Slowest p99', ''].map((label, index) =>
        h('th', { scope: 'col', class: index > 0 && index < 4 ? 'num' : null }, label)))),
      h('tbody', {}, groups.map((group) => {
        const buckets = group.stats.call_buckets;
        const calls = buckets.reduce((n, bucket) => n + bucket.sum_call_count, 0);
        const errors = buckets.reduce((n, bucket) => n + bucket.sum_error_count, 0);
        const p99 = Math.max(0, ...buckets.map((bucket) => bucket.p99_latency_ms ?? 0));
        return h('tr', {}, h('th', { scope: 'row' }, group.name), h('td', { class: 'num' }, formatNumber(calls)),
          h('td', { class: 'num' }, formatNumber(errors)), h('td', { class: 'num' }, formatLatency(p99)),
          h('td', {}, h('a', { href: href(projectPath(entity, project, 'calls'), { op: group.op, from: datetimeLocal(start), to: datetimeLocal(end + 60000) }) }, 'Open the calls')));
      }))));
  replace(view, h('h1', {}, 'Dashboard'), controls, totals, charts);
  const rangeLabel = range[1].toLowerCase();
  chart(charts, 'Calls', `Calls (${what}) over the ${rangeLabel}`, callSeries('sum_call_count'), { onPoint });
  chart(charts, 'Errors', `Errors (${what}) over the ${rangeLabel}`, callSeries('sum_error_count'), { onPoint });
  chart(charts, 'Latency (ms)', `Latency (${what}) over the ${rangeLabel}`, latencySeries, { onPoint });
  chart(charts, 'Tokens', `Tokens by model over the ${rangeLabel}`, usageSeries('sum_total_tokens'), { stack: true });
  chart(charts, 'Cost (USD)', `Cost by model over the ${rangeLabel}`, usageSeries('sum_total_cost'), { stack: true });
  charts.append(h('p', { class: 'total' }, `Buckets of ${bucketLength(granularity / 1000)}; tokens and cost are the traces' (a root holds its calls' usage). `,
    formatCost(usage.usage_buckets.reduce((n, bucket) => n + (bucket.sum_total_cost ?? 0), 0)) || '$0', ' in this range.'));
}
