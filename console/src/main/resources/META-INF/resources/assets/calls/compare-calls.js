// Two calls side by side (#/p/<entity>/<project>/compare-calls?ids=<id>,<id>): op, status, timing, tokens, and their
// inputs and outputs, with the input and output fields that differ named first.
import { h, replace, state, formatTime, formatLatency, formatNumber } from '../shared/dom.js';
import { opShortName } from '../shared/api.js';
import { callHref } from '../shared/router.js';
import { statusBadge, usageTotals } from '../shared/status.js';
import { jsonView } from '../shared/json-view.js';
import { jsonDifferences } from '../shared/json-diff.js';
import { exceptionView } from '../trace/exception-view.js';
import { wholeCalls } from './selection-actions.js';

export async function renderCompareCalls(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const ids = (params.get('ids') ?? '').split(',').filter(Boolean);
  replace(view, h('h1', {}, 'Compare calls'), state('Loading the calls…'));
  if (ids.length !== 2) {
    replace(view, h('h1', {}, 'Compare calls'), state('Tick two calls in the calls table to compare them.'));
    return;
  }
  const calls = await wholeCalls(projectId, ids);
  if (!isCurrent()) return;
  if (calls.length !== ids.length) {
    replace(view, h('h1', {}, 'Compare calls'), state(`No call ${ids.find((id) => !calls.some((call) => call.id === id))} in ${projectId}.`, 'error'));
    return;
  }
  const differing = ['inputs', 'output'].flatMap((side) => jsonDifferences(calls[0][side], calls[1][side], side).map(([path]) => path));
  const column = (call) => {
    const { tokens } = usageTotals(call.summary);
    return h('section', { class: 'card', 'aria-label': `Call ${call.id.slice(-8)}` },
      h('h2', {}, h('a', { href: callHref(entity, project, call.trace_id, call.id) },
        call.display_name || opShortName(call.op_name)), ' ', statusBadge(call.summary?.weave?.status)),
      h('p', {}, `${formatTime(call.started_at)} · ${formatLatency(call.summary?.weave?.latency_ms)}${tokens ? ` · ${formatNumber(tokens)} tokens` : ''}`),
      h('h3', {}, 'Inputs'), jsonView(call.inputs, { open: 2 }),
      h('h3', {}, 'Output'), jsonView(call.output, { open: 2 }),
      call.exception ? [h('h3', {}, 'Exception'), exceptionView(call.exception)] : null);
  };
  replace(view, h('h1', {}, 'Compare calls'),
    h('p', { class: 'differences', 'aria-label': 'Differences' }, differing.length === 0 ? 'Same inputs and output.'
      : ['Differ in ', differing.map((path, index) => [index ? ', ' : '', h('code', {}, path)])]),
    h('div', { class: 'side-by-side' }, calls.map(column)));
}
