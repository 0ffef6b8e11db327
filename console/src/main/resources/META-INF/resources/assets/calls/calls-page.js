// A project's calls (trace roots): filters, sortable columns and pages over calls/stream_query; the
// total comes from calls/query_stats afterwards, so the first rows never wait for a count.
import { h, replace, state, formatNumber } from '../shared/dom.js';
import { api, opShortName } from '../shared/api.js';
import { href, navigate, projectPath, refresh } from '../shared/router.js';
import { STATUSES } from '../shared/status.js';
import { callsFilter, callsPageRequest, PAGE_SIZE, SORT_FIELDS } from './calls-query.js';
import { chosenColumns, columnCell, columnKind, columnLabel, columnPicker, sortsByPath } from './calls-columns.js';
import { openView, opensView, viewsBar } from './saved-views.js';
import { trainPanel } from './train-from-calls.js';
import { datasetPanel, exportCsv, exportJsonl, rowColumns } from './selection-actions.js';
import { addToQueuePanel } from '../queues/queues-page.js';

export async function renderCalls(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const path = projectPath(entity, project, 'calls');
  const go = (changes) => navigate(path, { ...Object.fromEntries(params), page: '', ...changes });
  let open = null;
  if (params.has('view')) {
    try {
      open = await openView(projectId, params.get('view'));
    } catch (error) {
      if (isCurrent()) replace(view, h('h1', {}, 'Calls'), state(`The view ${params.get('view')} could not be opened: ${error.message}`, 'error'));
      return;
    }
    if (!isCurrent()) return;
    if (opensView(params)) {
      // The view's own link becomes its parameters in place, so Back does not open it again.
      history.replaceState(null, '', href(path, { ...open.params, view: open.id }));
      refresh();
      return;
    }
  }
  const rows = h('div', { class: 'table-wrap' }, state('Loading calls…'));
  const total = h('span', { class: 'total', 'aria-live': 'polite' });
  const picker = h('div');
  const columnsButton = h('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false', onclick: () => {
    const close = () => { replace(picker); columnsButton.setAttribute('aria-expanded', 'false'); };
    if (picker.firstChild) return close();
    columnsButton.setAttribute('aria-expanded', 'true');
    replace(picker, columnPicker(callsPageRequest(projectId, params), chosenColumns(params),
      (columns) => go({ cols: columns.join(',') }), close));
  } }, 'Columns…');
  const unshown = open?.unshown ? state(`This view has ${open.unshown} condition${open.unshown === 1 ? '' : 's'} the console cannot show; `
    + 'they are not applied.', 'error') : null;
  replace(view, h('h1', {}, open ? `Calls: ${open.label}` : 'Calls'), viewsBar(entity, project, params, open), unshown,
    filters(projectId, params, go), h('div', { class: 'table-head' }, columnsButton, total), picker, rows);

  const page = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);
  api.post('/calls/query_stats', callsFilter(projectId, params))
    .then(({ count }) => isCurrent() && replace(total, `${formatNumber(count)} ${params.get('op') ? 'call' : 'trace'}${count === 1 ? '' : 's'}`))
    .catch((error) => isCurrent() && replace(total, `The total is unavailable (${error.message}).`));
  let calls;
  try {
    calls = await api.lines('/calls/stream_query', callsPageRequest(projectId, params));
  } catch (error) {
    if (isCurrent()) replace(rows, state(`The calls could not be loaded: ${error.message}`, 'error'));
    return;
  }
  if (!isCurrent()) return;
  if (calls.length === 0) {
    replace(rows, state(page > 0 ? 'No more calls on this page.' : [...params.keys()].some((key) => key !== 'sort' && key !== 'dir')
      ? 'No call matches these filters.' : 'This project has no calls yet.'));
  } else {
    replace(rows, selectable(calls, entity, project, params, go));
  }
  rows.append(h('nav', { class: 'pager', 'aria-label': 'Pages' },
    h('button', { type: 'button', disabled: page === 0, onclick: () => go({ page: page - 1 || '' }) }, 'Previous page'),
    h('span', {}, `Page ${page + 1}`),
    h('button', { type: 'button', disabled: calls.length < PAGE_SIZE, onclick: () => go({ page: page + 1 }) }, 'Next page')));
}

function filters(projectId, params, go) {
  const op = h('select', { id: 'filter-op', name: 'op' }, h('option', { value: '' }, 'Any op'));
  // The op list loads beside the rows; until it does, a chosen op is still shown.
  if (params.get('op')) op.append(h('option', { value: params.get('op'), selected: true }, params.get('op')));
  // Every op the project's calls ran, published or not: an op's versions are one choice, by its short name.
  api.post('/calls/op_names', { project_id: projectId }).then(({ op_names: names }) => {
    const shortNames = [...new Set(names.map(opShortName))].sort((a, b) => a.localeCompare(b));
    for (const name of shortNames) {
      if (name !== params.get('op')) op.append(h('option', { value: name }, name));
    }
  }).catch(() => { /* the filter still works by the chosen value */ });
  const status = h('select', { id: 'filter-status', name: 'status' }, h('option', { value: '' }, 'Any status'),
    STATUSES.map(({ value, label }) => h('option', { value, selected: params.get('status') === value }, label)));
  const from = h('input', { id: 'filter-from', name: 'from', type: 'datetime-local', value: params.get('from') ?? '' });
  const to = h('input', { id: 'filter-to', name: 'to', type: 'datetime-local', value: params.get('to') ?? '' });
  const text = h('input', { id: 'filter-text', name: 'text', type: 'search', value: params.get('text') ?? '',
    placeholder: 'text in inputs or output' });
  const feedback = h('select', { id: 'filter-feedback', name: 'feedback' }, h('option', { value: '' }, 'Any feedback'),
    [['reaction', 'Has a reaction'], ['note', 'Has a note']].map(([value, label]) =>
      h('option', { value, selected: params.get('feedback') === value }, label)));
  const field = (id, label, input) => h('div', { class: 'field' }, h('label', { for: id }, label), input);
  return h('form', { class: 'filters', role: 'search', onsubmit: (event) => {
    event.preventDefault();
    go({ op: op.value, status: status.value, from: from.value, to: to.value, text: text.value.trim(), feedback: feedback.value });
  } },
  field('filter-op', 'Op', op), field('filter-status', 'Status', status), field('filter-from', 'Started after', from),
  field('filter-to', 'Started before', to), field('filter-text', 'Search', text), field('filter-feedback', 'Feedback', feedback),
  h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Apply filters'),
    h('button', { type: 'button', class: 'secondary', onclick: () => navigate(location.hash.slice(1).split('?')[0]) }, 'Clear')));
}

/** The table with a checkbox per call, and what can be done with the checked ones: train on them, add them to a
 * dataset, compare two, export them. */
function selectable(calls, entity, project, params, go) {
  const selected = new Set();
  const count = h('span', { class: 'selection-count', 'aria-live': 'polite' });
  const panel = h('div');
  const chosenIds = () => calls.filter((call) => selected.has(call.id)).map((call) => call.id);
  const projectId = `${entity}/${project}`;
  const failed = (error) => replace(panel, state(`The calls could not be exported: ${error.message}`, 'error'));
  const closePanel = () => replace(panel);
  const train = h('button', { type: 'button', id: 'train-selected', disabled: true, onclick: () => {
    replace(panel, trainPanel(entity, project, chosenIds(), closePanel));
  } }, 'Train on selected…');
  const toDataset = h('button', { type: 'button', class: 'secondary', disabled: true,
    onclick: () => replace(panel, datasetPanel(entity, project, chosenIds(), rowColumns(chosenColumns(params)), closePanel)) }, 'Add to dataset…');
  const toQueue = h('button', { type: 'button', class: 'secondary', disabled: true,
    onclick: () => replace(panel, addToQueuePanel(entity, project, chosenIds(), closePanel)) }, 'Add to queue…');
  const compare = h('button', { type: 'button', class: 'secondary', disabled: true,
    onclick: () => navigate(projectPath(entity, project, 'compare-calls'), { ids: chosenIds().join(',') }) }, 'Compare');
  const jsonl = h('button', { type: 'button', class: 'secondary', disabled: true, onclick: () => exportJsonl(projectId, chosenIds()).catch(failed) }, 'Export JSONL');
  const csv = h('button', { type: 'button', class: 'secondary', disabled: true, onclick: () => exportCsv(projectId, chosenIds()).catch(failed) }, 'Export CSV');
  const boxes = new Map(calls.map((call) => [call.id, h('input', { type: 'checkbox', 'aria-label': `Select call ${call.id.slice(-8)}`,
    onchange: (event) => { if (event.target.checked) selected.add(call.id); else selected.delete(call.id); changed(); } })]));
  const all = h('input', { type: 'checkbox', 'aria-label': 'Select every call on this page', onchange: (event) => {
    boxes.forEach((box, id) => { box.checked = event.target.checked; if (box.checked) selected.add(id); else selected.delete(id); });
    changed();
  } });
  function changed() {
    replace(count, selected.size === 0 ? '' : `${selected.size} selected`);
    for (const button of [train, toDataset, toQueue, jsonl, csv]) button.disabled = selected.size === 0;
    compare.disabled = selected.size !== 2;
    all.checked = selected.size === calls.length;
  }
  return h('div', {}, h('div', { class: 'selection-bar' }, train, toDataset, toQueue, compare, jsonl, csv, count), panel, table(calls, entity, project, params, go, boxes, all));
}

function table(calls, entity, project, params, go, boxes, all) {
  const sort = params.get('sort') ?? 'started';
  const direction = params.get('dir') === 'asc' ? 'asc' : 'desc';
  const columns = chosenColumns(params);
  const header = columns.map((key) => {
    const label = columnLabel(key);
    const kind = columnKind(key);
    if (!SORT_FIELDS[key] && !sortsByPath(key)) return h('th', { scope: 'col', class: kind, title: key }, label);
    const active = key === sort;
    const next = active && direction === 'desc' ? 'asc' : 'desc';
    return h('th', { scope: 'col', class: kind, 'aria-sort': active ? (direction === 'asc' ? 'ascending' : 'descending') : 'none' },
      h('button', { type: 'button', class: 'sort', onclick: () => go({ sort: key, dir: next }),
        title: `Sort by ${SORT_FIELDS[key] ? label.toLowerCase() : key}` }, label, active ? (direction === 'asc' ? ' ▲' : ' ▼') : ''));
  });
  const context = { entity, project };
  return h('table', { class: 'grid calls' },
    h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'select' }, all), header)),
    h('tbody', {}, calls.map((call) => h('tr', {}, h('td', { class: 'select' }, boxes.get(call.id)),
      columns.map((key) => columnCell(call, key, context))))));
}
