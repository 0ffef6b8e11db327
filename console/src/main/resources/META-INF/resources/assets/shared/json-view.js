// JSON as a readable, collapsible tree: objects and arrays fold (<details>, so keyboard and screen readers
// work), long strings fold after a preview, and refs to objects or tables are links to them.
import { h } from './dom.js';
import { parseRef } from './api.js';
import { href, projectPath } from './router.js';

const LONG_STRING = 200;

export function jsonView(value, { open = 2 } = {}) {
  return h('div', { class: 'json' }, node(value, open));
}

function node(value, open) {
  if (value === null || value === undefined) return h('span', { class: 'json-null' }, 'null');
  if (typeof value === 'string') return stringNode(value);
  if (typeof value !== 'object') return h('span', { class: `json-${typeof value}` }, String(value));
  const entries = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
  if (entries.length === 0) return h('span', { class: 'json-empty' }, Array.isArray(value) ? '[]' : '{}');
  const label = Array.isArray(value) ? `[${entries.length} item${entries.length === 1 ? '' : 's'}]`
    : `{${entries.length} key${entries.length === 1 ? '' : 's'}}`;
  return h('details', { open: open > 0 }, h('summary', {}, label),
    h('dl', {}, entries.map(([key, item]) => [h('dt', {}, String(key)), h('dd', {}, node(item, open - 1))])));
}

function stringNode(text) {
  const ref = parseRef(text);
  if (ref && ref.kind !== 'call') {
    const path = ref.kind === 'table' ? projectPath(ref.entity, ref.project, 'tables', ref.name)
      : projectPath(ref.entity, ref.project, 'objects', ref.name);
    return h('a', { class: 'json-ref', href: href(path, { digest: ref.kind === 'table' ? '' : ref.digest }) }, text);
  }
  if (text.length <= LONG_STRING) return h('span', { class: 'json-string' }, text);
  return h('details', { class: 'json-long' },
    h('summary', {}, h('span', { class: 'json-string' }, `${text.slice(0, LONG_STRING)}…`), ` (${text.length} characters)`),
    h('pre', { class: 'json-string' }, text));
}
