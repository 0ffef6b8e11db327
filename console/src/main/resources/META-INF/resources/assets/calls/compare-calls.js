// Two calls side by side (#/p/<entity>/<project>/compare-calls?ids=<id>,<id>): op, status, timing, tokens, and their
// inputs and outputs, with the input and output fields that differ named first.
import { h, replace, state, formatTime, formatLatency, formatNumber } from '../shared/dom.js';
import { api, opShortName } from '../shared/api.js';
import { href, projectPath } from '../shared/router.js';
import { statusBadge, usageTotals } from '../shared/status.js';
import { jsonView } from '../shared/json-view.js';

/** The top-level fields of two values that differ, as `inputs.x` / `output.y` (or the whole `output`). */
function differences(prefix, left, right) {
  const isObject = (value) => value && typeof value === 'object' && !Array.isArray(value);
  if (!isObject(left) || !isObject(right)) return JSON.stringify(left) === JSON.stringify(right) ? [] : [prefix];
  const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])].sort();
  return keys.filter((key) => JSON.stringify(left[key]) !== JSON.stringify(right[key])).map((key) => `${prefix}.${key}`);
}

export async function renderCompareCalls(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const ids = (params.get('ids') ?? '').split(',').filter(Boolean);
  replace(view, h('h1', {}, 'Compare calls'), state('Loading the calls…'));
  if (ids.length !== 2) {
    replace(view, h('h1', {}, 'Compare calls'), state('Tick two calls in the calls table to compare them.'));
    return;
  }
  const found = await api.lines('/calls/stream_query', { project_id: projectId, filter: { call_ids: ids } });
  if (!isCurrent()) return;
  const calls = ids.map((id) => found.find((call) => call.id === id));
  if (calls.some((call) => !call)) {
    replace(view, h('h1', {}, 'Compare calls'), state(`No call ${ids.find((id, index) => !calls[index])} in ${projectId}.`, 'error'));
    return;
  }
  const differing = [...differences('inputs', calls[0].inputs, calls[1].inputs), ...differences('output', calls[0].output, calls[1].output)];
  const column = (call) => {
    const { tokens } = usageTotals(call.summary);
    return h('section', { class: 'card', 'aria-label': `Call ${call.id.slice(-8)}` },
      h('h2', {}, h('a', { href: href(projectPath(entity, project, 'traces', call.trace_id), { call: call.id }) },
        call.display_name || opShortName(call.op_name)), ' ', statusBadge(call.summary?.weave?.status)),
      h('p', {}, `${formatTime(call.started_at)} · ${formatLatency(call.summary?.weave?.latency_ms)}${tokens ? ` · ${formatNumber(tokens)} tokens` : ''}`),
      h('h3', {}, 'Inputs'), jsonView(call.inputs, { open: 2 }),
      h('h3', {}, 'Output'), jsonView(call.output, { open: 2 }),
      call.exception ? [h('h3', {}, 'Exception'), h('pre', { class: 'exception-text' }, call.exception)] : null);
  };
  replace(view, h('h1', {}, 'Compare calls'),
    h('p', { class: 'differences', 'aria-label': 'Differences' }, differing.length === 0 ? 'Same inputs and output.'
      : ['Differ in ', differing.map((path, index) => [index ? ', ' : '', h('code', {}, path)])]),
    h('div', { class: 'side-by-side' }, calls.map(column)));
}
