// What the calls table does with the ticked calls besides training: export them (JSON Lines or CSV, downloaded),
// compare two side by side, add them to a dataset as a new version (rows from their inputs and output, through
// table/create and obj/create as the SDK's Dataset.save writes them).
import { h, replace, state } from '../shared/dom.js';
import { api, opShortName } from '../shared/api.js';
import { href, projectPath } from '../shared/router.js';
import { columnLabel, columnValue, DEFAULT_COLUMNS, pathSegments } from './calls-columns.js';

function download(name, type, text) {
  const link = h('a', { href: URL.createObjectURL(new Blob([text], { type })), download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 1000);
}

/** The calls whole (the table loads them without inputs and output), in the order of `ids`; with their feedback if asked. */
export async function wholeCalls(projectId, ids, withFeedback = false) {
  const found = await api.lines('/calls/stream_query', { project_id: projectId, filter: { call_ids: ids }, include_feedback: withFeedback });
  return ids.map((id) => found.find((call) => call.id === id)).filter(Boolean);
}

export async function exportJsonl(projectId, ids) {
  const calls = await wholeCalls(projectId, ids);
  download(`${projectId.replace('/', '-')}-calls.jsonl`, 'application/jsonl', calls.map((call) => JSON.stringify(call)).join('\n') + '\n');
}

const CSV_COLUMNS = [
  ['id', (call) => call.id], ['op', (call) => opShortName(call.op_name)], ['display_name', (call) => call.display_name ?? ''],
  ['trace_id', (call) => call.trace_id], ['started_at', (call) => call.started_at], ['ended_at', (call) => call.ended_at ?? ''],
  ['status', (call) => call.summary?.weave?.status ?? ''], ['latency_ms', (call) => call.summary?.weave?.latency_ms ?? ''],
  ['inputs', (call) => JSON.stringify(call.inputs ?? null)], ['output', (call) => JSON.stringify(call.output ?? null)],
  ['exception', (call) => call.exception ?? ''],
];

/** RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled. */
const csvField = (value) => {
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

export async function exportCsv(projectId, ids) {
  const calls = await wholeCalls(projectId, ids);
  const lines = [CSV_COLUMNS.map(([name]) => name).join(','), ...calls.map((call) => CSV_COLUMNS.map(([, value]) => csvField(value(call))).join(','))];
  download(`${projectId.replace('/', '-')}-calls.csv`, 'text/csv', `${lines.join('\r\n')}\r\n`);
}

/** The table's chosen columns a dataset row is made of: any but the fixed ones (op, status, latency…). */
export const rowColumns = (columns) => columns.filter((key) => !DEFAULT_COLUMNS.includes(key));

/** A row column's name: an input's own name, a feedback column's label, else the field's path. */
function rowColumnName(key) {
  const [root, ...rest] = pathSegments(key);
  if (root === 'inputs' && rest.length > 0) return rest.join('.');
  return root === 'feedback' ? columnLabel(key) : key;
}

/**
 * A dataset row from a call: the chosen columns' values (the whole inputs spread into their own names, a feedback
 * column's single value as it is), or without chosen columns its inputs (without `self`), then its output.
 */
function rowOf(call, columns) {
  const row = {};
  const spreadInputs = () => {
    for (const [name, value] of Object.entries(call.inputs ?? {})) if (name !== 'self') row[name] = value;
  };
  if (columns.length === 0) {
    spreadInputs();
    row.output = call.output ?? null;
    return row;
  }
  for (const key of columns) {
    if (key === 'inputs') {
      spreadInputs();
      continue;
    }
    const value = columnValue(call, key);
    row[rowColumnName(key)] = Array.isArray(value) && pathSegments(key)[0] === 'feedback'
      ? (value.length === 0 ? null : value.length === 1 ? value[0] : value) : value ?? null;
  }
  return row;
}

/** Adds the calls as rows of a new version of the dataset `name` (after the latest version's rows, if it exists). */
async function addToDataset(projectId, name, ids, columns) {
  const calls = await wholeCalls(projectId, ids, columns.some((key) => key.startsWith('feedback.')));
  let rows = [];
  const { objs } = await api.post('/objs/query', { project_id: projectId, filter: { object_ids: [name], latest_only: true } });
  if (objs.length > 0) {
    const latest = objs[0];
    if (latest.base_object_class !== 'Dataset' && latest.val?._class_name !== 'Dataset') throw new Error(`${name} is an object of this project that is not a dataset`);
    const digest = String(latest.val.rows).split('/table/')[1];
    for (let offset = 0; ; offset += 1000) {
      const page = await api.post('/table/query', { project_id: projectId, digest, limit: 1000, offset });
      rows.push(...page.rows.map((row) => row.val));
      if (page.rows.length < 1000) break;
    }
  }
  rows = [...rows, ...calls.map((call) => rowOf(call, columns))];
  const table = await api.post('/table/create', { table: { project_id: projectId, rows } });
  const created = await api.post('/obj/create', { obj: { project_id: projectId, object_id: name, val: {
    _type: 'Dataset', _class_name: 'Dataset', _bases: ['Object', 'BaseModel'], name, description: null,
    rows: `weave:///${projectId}/table/${table.digest}`,
  } } });
  return { digest: created.digest, rowCount: rows.length };
}

/** The "Add to dataset" panel for the ticked calls, rows of the table's chosen `columns`; `close` removes it. */
export function datasetPanel(entity, project, ids, columns, close) {
  const projectId = `${entity}/${project}`;
  const name = h('input', { id: 'dataset-name', type: 'text', required: true, placeholder: 'e.g. hard-questions', pattern: '[A-Za-z0-9_.\\-]+' });
  const result = h('div', { 'aria-live': 'polite' });
  const submit = async (event) => {
    event.preventDefault();
    replace(result, state('Adding the rows…'));
    try {
      const added = await addToDataset(projectId, name.value.trim(), ids, columns);
      replace(result, state(`${name.value.trim()} has a new version with ${added.rowCount} rows.`),
        h('a', { href: href(projectPath(entity, project, 'objects', name.value.trim()), { digest: added.digest }) }, 'Open the dataset'));
    } catch (error) {
      replace(result, state(`The rows could not be added: ${error.message}`, 'error'));
    }
  };
  return h('section', { class: 'train-panel', 'aria-label': 'Add the selected calls to a dataset' },
    h('h2', {}, `Add ${ids.length} selected call${ids.length === 1 ? '' : 's'} to a dataset`),
    h('p', {}, columns.length === 0
      ? 'Each call becomes a row: its inputs as columns, and its output. An existing dataset gets a new version with these rows after its own.'
      : `Each call becomes a row of the table's chosen columns: ${columns.map(rowColumnName).join(', ')}. An existing dataset gets a new version with these rows after its own.`),
    h('form', { class: 'train-form', onsubmit: submit },
      h('div', { class: 'field' }, h('label', { for: 'dataset-name' }, 'Dataset'), name),
      h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Add rows'),
        h('button', { type: 'button', class: 'secondary', onclick: close }, 'Close'))),
    result);
}
