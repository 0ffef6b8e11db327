// The calls table's columns: the fixed ones, and any field of the calls or of their feedback, chosen in the column
// picker. A chosen field's key is its Weave field path (inputs.question, output, summary.usage,
// feedback.[wandb.note.1].payload.note), so the same key sorts the table on the server and travels in the URL's `cols`.
import { h, replace, state, formatTime, formatLatency, formatNumber, formatCost } from '../shared/dom.js';
import { api, opShortName } from '../shared/api.js';
import { callHref } from '../shared/router.js';
import { statusBadge, usageTotals } from '../shared/status.js';

const FIXED = {
  op: { label: 'Op', cell: (call, context) => h('a', { href: callHref(context.entity, context.project, call.trace_id, call.id) }, opShortName(call.op_name)) },
  name: { label: 'Name', cell: (call) => call.display_name ?? '' },
  status: { label: 'Status', cell: (call) => statusBadge(call.summary?.weave?.status) },
  started: { label: 'Started', cell: (call) => formatTime(call.started_at) },
  latency: { label: 'Latency', kind: 'num', cell: (call) => formatLatency(call.summary?.weave?.latency_ms) },
  tokens: { label: 'Tokens', kind: 'num', cell: (call) => formatNumber(usageTotals(call.summary).tokens) },
  cost: { label: 'Cost', kind: 'num', cell: (call) => formatCost(usageTotals(call.summary).cost) },
  user: { label: 'User', cell: (call) => call.svc_user_id ?? '' },
};

export const DEFAULT_COLUMNS = Object.keys(FIXED);
const ROOTS = ['inputs', 'output', 'attributes', 'summary'];
const FEEDBACK_KEY = /^feedback\.\[([^\]]+)\]\.payload(?:\.|$)/;
// Deeper fields are offered as their parent object, shown as JSON.
const MAX_DEPTH = 3;
const MAX_PER_GROUP = 100;
const PREVIEW_CHARS = 160;

/** A Weave field path's segments: feedback.[wandb.note.1].payload.note → feedback, wandb.note.1, payload, note. */
export function pathSegments(key) {
  return (key.match(/\[[^\]]*\]|[^.]+/g) ?? []).map((segment) => segment.replace(/^\[(.*)\]$/, '$1'));
}

export function isColumnKey(key) {
  return Object.hasOwn(FIXED, key) || ROOTS.includes(pathSegments(key)[0]) || FEEDBACK_KEY.test(key);
}

/** The URL's columns, or the default ones; keys the console does not know are dropped. */
export function chosenColumns(params) {
  const keys = (params.get('cols') ?? '').split(',').filter((key) => key && isColumnKey(key));
  return keys.length ? [...new Set(keys)] : DEFAULT_COLUMNS;
}

/** Whether rows need the calls' inputs, output or attributes loaded (the default table leaves them out). */
export function neededColumns(columns) {
  return ROOTS.filter((root) => root !== 'summary' && columns.some((key) => pathSegments(key)[0] === root));
}

export const needsFeedback = (columns) => columns.some((key) => FEEDBACK_KEY.test(key));

/** A dynamic column sorts on the server by its path, except a whole inputs or output object. */
export const sortsByPath = (key) => !Object.hasOwn(FIXED, key) && !['inputs', 'output'].includes(key) && isColumnKey(key);

export function columnLabel(key) {
  if (Object.hasOwn(FIXED, key)) return FIXED[key].label;
  if (key === 'inputs') return 'Input';
  if (key === 'output') return 'Output';
  const feedback = FEEDBACK_KEY.exec(key);
  if (!feedback) return key;
  const type = feedback[1];
  if (type === 'wandb.reaction.1') return 'Reactions';
  if (type === 'wandb.note.1') return 'Notes';
  const named = /^wandb\.(?:annotation|runnable)\.(.+)$/.exec(type);
  const rest = pathSegments(key).slice(3).join('.');
  return named ? named[1] : `${type}${rest ? ` ${rest}` : ''}`;
}

export const columnKind = (key) => FIXED[key]?.kind;

function dig(value, path) {
  let at = value;
  for (const segment of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = at[segment];
  }
  return at;
}

/** A column's value for a call: a field's value, or the list of values its feedback of that type holds. */
export function columnValue(call, key) {
  const [root, ...rest] = pathSegments(key);
  if (root === 'feedback') {
    const [type, , ...payloadPath] = rest;
    return (call.summary?.weave?.feedback ?? []).filter((entry) => entry.feedback_type === type)
      .map((entry) => dig(entry.payload, payloadPath)).filter((value) => value !== undefined && value !== null);
  }
  return dig(call[root], rest);
}

function preview(value) {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value) && value.every((item) => typeof item !== 'object')) return value.join(' ');
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

export function columnCell(call, key, context) {
  if (Object.hasOwn(FIXED, key)) return h('td', { class: FIXED[key].kind }, FIXED[key].cell(call, context));
  const text = preview(columnValue(call, key));
  const short = text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
  return h('td', { class: 'field-cell', title: short === text ? undefined : text }, short);
}

/** Leaf paths of a value below `prefix`, objects deeper than MAX_DEPTH offered whole. */
function collectPaths(value, prefix, depth, into) {
  const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
  const keys = isObject ? Object.keys(value).filter((name) => !/[.,[\]]/.test(name) && name !== '') : [];
  if (!isObject || keys.length === 0 || depth >= MAX_DEPTH) {
    into.add(prefix);
    return;
  }
  for (const name of keys) collectPaths(value[name], `${prefix}.${name}`, depth + 1, into);
}

const FEEDBACK_PAYLOAD_FIELD = { 'wandb.reaction.1': 'emoji', 'wandb.note.1': 'note' };

/** The columns these calls offer, grouped as the picker lists them. */
export function offeredColumns(calls) {
  const groups = { inputs: new Set(['inputs']), output: new Set(['output']), attributes: new Set(), summary: new Set(), feedback: new Set() };
  for (const call of calls) {
    for (const name of Object.keys(call.inputs ?? {})) if (!/[.,[\]]/.test(name)) collectPaths(call.inputs[name], `inputs.${name}`, 1, groups.inputs);
    if (call.output !== null && typeof call.output === 'object' && !Array.isArray(call.output)) collectPaths(call.output, 'output', 0, groups.output);
    for (const name of Object.keys(call.attributes ?? {})) if (!/[.,[\]]/.test(name)) collectPaths(call.attributes[name], `attributes.${name}`, 1, groups.attributes);
    for (const [name, value] of Object.entries(call.summary ?? {})) {
      if (name !== 'weave' && !/[.,[\]]/.test(name)) collectPaths(value, `summary.${name}`, 1, groups.summary);
    }
    for (const entry of call.summary?.weave?.feedback ?? []) {
      const type = entry.feedback_type;
      if (!type || /[\],]/.test(type)) continue;
      const base = `feedback.[${type}].payload`;
      const known = FEEDBACK_PAYLOAD_FIELD[type] ?? (type.startsWith('wandb.annotation.') ? 'value' : type.startsWith('wandb.runnable.') ? 'output' : null);
      if (known) groups.feedback.add(`${base}.${known}`);
      else collectPaths(entry.payload, base, 2, groups.feedback);
    }
  }
  const limited = (set) => [...set].sort((a, b) => a.localeCompare(b)).slice(0, MAX_PER_GROUP);
  return [
    ['Fields', DEFAULT_COLUMNS],
    ['Inputs', limited(groups.inputs)],
    ['Output', limited(groups.output)],
    ['Attributes', limited(groups.attributes)],
    ['Summary', limited(groups.summary)],
    ['Feedback', limited(groups.feedback)],
  ].filter(([, keys]) => keys.length > 0);
}

/**
 * The column picker: every column the calls of this filter offer (read from a sample of them, whole, with their
 * feedback), the chosen ones ticked; applying keeps the chosen columns' order and appends new ones.
 */
export function columnPicker(sampleRequest, current, apply, close) {
  const body = h('div', {}, state('Reading the calls’ fields…'));
  const panel = h('section', { class: 'train-panel column-picker', 'aria-label': 'Columns' }, h('h2', {}, 'Columns'), body);
  api.lines('/calls/stream_query', { ...sampleRequest, columns: undefined, include_feedback: true, limit: 100, offset: 0 })
    .then((calls) => {
      const boxes = new Map();
      const find = h('input', { type: 'search', id: 'column-find', placeholder: 'inputs.question', oninput: () => {
        const text = find.value.trim().toLowerCase();
        for (const [key, box] of boxes) box.closest('label').hidden = !!text && !`${key} ${columnLabel(key)}`.toLowerCase().includes(text);
      } });
      const groups = offeredColumns(calls).map(([group, keys]) => h('fieldset', { class: 'column-group' }, h('legend', {}, group),
        keys.map((key) => {
          const box = h('input', { type: 'checkbox', value: key, checked: current.includes(key) });
          boxes.set(key, box);
          const label = columnLabel(key);
          return h('label', { class: 'column-choice', title: key }, box, ` ${label}`,
            label === key || Object.hasOwn(FIXED, key) ? '' : h('code', {}, ` ${key}`));
        })));
      // Chosen keys the sample does not show (a column of a saved view, say) stay offered, ticked.
      const missing = current.filter((key) => !boxes.has(key));
      if (missing.length) {
        groups.push(h('fieldset', { class: 'column-group' }, h('legend', {}, 'Not in these calls'), missing.map((key) => {
          const box = h('input', { type: 'checkbox', value: key, checked: true });
          boxes.set(key, box);
          return h('label', { class: 'column-choice' }, box, ` ${columnLabel(key)}`);
        })));
      }
      const chosen = () => {
        const ticked = [...boxes].filter(([, box]) => box.checked).map(([key]) => key);
        return [...current.filter((key) => ticked.includes(key)), ...ticked.filter((key) => !current.includes(key))];
      };
      replace(body,
        h('div', { class: 'field' }, h('label', { for: 'column-find' }, 'Find a column'), find),
        h('div', { class: 'column-groups' }, groups),
        h('div', { class: 'actions' },
          h('button', { type: 'button', onclick: () => apply(chosen()) }, 'Apply columns'),
          h('button', { type: 'button', class: 'secondary', onclick: () => apply(DEFAULT_COLUMNS) }, 'Default columns'),
          h('button', { type: 'button', class: 'secondary', onclick: close }, 'Cancel')));
    })
    .catch((error) => replace(body, state(`The calls’ fields could not be read: ${error.message}`, 'error')));
  return panel;
}
