// A project's inference usage (#/p/<entity>/<project>/usage?from=YYYY-MM-DD&to=YYYY-MM-DD): requests, prompt and
// completion tokens and cost per model per UTC day, as stacked bar charts and a table. The counts are the
// gateway's (GET /v1/usage/daily, from the usage records it publishes for every request: a failed one, or one it
// refused such as a 422 or an unknown model, is an error); the cost prices them with this project's LLM prices or
// else the platform's default prices, the price in effect on each day. Above them, the project's and its keys'
// limits and budgets with what each used this minute, today and this month (limits-section.js).
import * as echarts from '/webjars/echarts/5.3.1/dist/echarts.esm.min.js';
import { h, replace, state, formatNumber, formatCost } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { navigate, projectPath } from '../shared/router.js';
import { loadPrices, priceAt } from '../prices/prices.js';
import { limitsSection } from './limits-section.js';

const DEFAULT_DAYS = 30;
const DAY_MS = 86400000;

function isoDay(date) {
  return date.toISOString().slice(0, 10);
}

function daysBetween(from, to) {
  const days = [];
  for (let at = Date.parse(`${from}T00:00:00Z`); at <= Date.parse(`${to}T00:00:00Z`); at += DAY_MS) days.push(isoDay(new Date(at)));
  return days;
}

export async function renderUsage(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const to = params.get('to') || isoDay(new Date());
  const from = params.get('from') || isoDay(new Date(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * DAY_MS));
  const fromInput = h('input', { id: 'usage-from', type: 'date', value: from });
  const toInput = h('input', { id: 'usage-to', type: 'date', value: to });
  const filters = h('form', { class: 'filters', onsubmit: (event) => {
    event.preventDefault();
    navigate(projectPath(entity, project, 'usage'), { from: fromInput.value, to: toInput.value });
  } },
  h('div', { class: 'field' }, h('label', { for: 'usage-from' }, 'From'), fromInput),
  h('div', { class: 'field' }, h('label', { for: 'usage-to' }, 'To'), toInput),
  h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Show')));
  const limits = limitsSection(projectId, isCurrent);
  replace(view, h('h1', {}, 'Usage'), filters, limits, state('Loading the usage…'));

  const query = new URLSearchParams({ project: projectId, from, to });
  const [usage, prices] = await Promise.all([
    api.get(`/v1/usage/daily?${query}`),
    loadPrices(projectId),
  ]);
  if (!isCurrent()) return;
  const rows = usage.data.map((row) => {
    const price = priceAt(prices, row.model, Date.parse(`${row.day}T23:59:59.999Z`));
    return { ...row, cost: price ? row.prompt_tokens * price.prompt_token_cost + row.completion_tokens * price.completion_token_cost : null };
  });
  if (rows.length === 0) {
    replace(view, h('h1', {}, 'Usage'), filters, limits,
      state(`No inference request of ${projectId} between ${usage.from} and ${usage.to}. Requests count here when they name this project (Compat-Project header, or the playground).`));
    return;
  }
  const total = (field) => rows.reduce((sum, row) => sum + (row[field] ?? 0), 0);
  const priced = rows.some((row) => row.cost !== null);
  const chartsBox = h('div', { class: 'chart-grid' });
  replace(view, h('h1', {}, 'Usage'), filters, limits,
    h('dl', { class: 'facts usage-totals', 'aria-label': 'Totals' },
      h('dt', {}, 'Requests'), h('dd', {}, formatNumber(total('requests'))),
      h('dt', {}, 'Errors'), h('dd', {}, formatNumber(total('errors'))),
      h('dt', {}, 'Prompt tokens'), h('dd', {}, formatNumber(total('prompt_tokens'))),
      h('dt', {}, 'Completion tokens'), h('dd', {}, formatNumber(total('completion_tokens'))),
      h('dt', {}, 'Cost'), h('dd', {}, priced ? formatCost(total('cost')) || '$0' : 'no price set for these models')),
    chartsBox,
    h('section', { class: 'card', 'aria-labelledby': 'usage-table' }, h('h2', { id: 'usage-table' }, 'Per model and day'),
      h('div', { class: 'table-wrap' }, h('table', { class: 'grid usage' },
        h('thead', {}, h('tr', {}, ['Day', 'Model', 'Requests', 'Errors', 'Prompt tokens', 'Completion tokens', 'Cost']
          .map((label, index) => h('th', { scope: 'col', class: index >= 2 ? 'num' : null }, label)))),
        h('tbody', {}, [...rows].reverse().map((row) => h('tr', {},
          h('td', {}, row.day), h('td', { class: 'mono' }, row.model),
          h('td', { class: 'num' }, formatNumber(row.requests)), h('td', { class: 'num' }, formatNumber(row.errors)),
          h('td', { class: 'num' }, formatNumber(row.prompt_tokens)), h('td', { class: 'num' }, formatNumber(row.completion_tokens)),
          h('td', { class: 'num' }, row.cost === null ? 'no price' : formatCost(row.cost) || '$0'))))))),
    !priced ? state('Costs use this project\'s LLM prices or the default prices (see Prices); no model used here has one.') : null);

  const days = daysBetween(usage.from, usage.to);
  const models = [...new Set(rows.map((row) => row.model))].sort();
  const charts = [['Requests', 'requests'], ['Prompt tokens', 'prompt_tokens'], ['Completion tokens', 'completion_tokens']];
  if (priced) charts.push(['Cost (USD)', 'cost']);
  for (const [title, field] of charts) {
    const box = h('div', { class: 'chart', role: 'img', 'aria-label': `${title} per day by model` });
    chartsBox.append(h('figure', { class: 'chart-card' }, h('figcaption', {}, title), box));
    echarts.init(box, null, { renderer: 'svg' }).setOption({
      animation: false,
      grid: { left: 64, right: 16, top: 28, bottom: 30 },
      legend: { top: 0, type: 'scroll' },
      tooltip: { trigger: 'axis' },
      xAxis: { type: 'category', data: days },
      yAxis: { type: 'value' },
      series: models.map((model) => ({ name: model, type: 'bar', stack: field, data: days.map((day) =>
        rows.find((row) => row.day === day && row.model === model)?.[field] ?? 0) })),
    });
  }
}
