// A trace: its calls as a tree beside a timeline; the selected call (?call=<id> in the URL) in detail.
import { h, replace, state, formatLatency } from '../shared/dom.js';
import { api, opShortName } from '../shared/api.js';
import { href, navigate, projectPath, refresh } from '../shared/router.js';
import { statusBadge } from '../shared/status.js';
import { traceTree } from './trace-tree.js';
import { timeline } from './timeline.js';
import { callDetail } from './call-detail.js';

const MAX_CALLS = 10000;

export async function renderTrace(view, [entity, project, traceId], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const path = projectPath(entity, project, 'traces', traceId);
  replace(view, h('h1', {}, 'Trace'), state('Loading the trace…'));
  const calls = await api.lines('/calls/stream_query', { project_id: projectId, filter: { trace_ids: [traceId] },
    sort_by: [{ field: 'started_at', direction: 'asc' }], include_costs: true, limit: MAX_CALLS });
  if (!isCurrent()) return;
  if (calls.length === 0) {
    replace(view, h('h1', {}, 'Trace'), state(`No call of trace ${traceId} exists in ${projectId} (it may have been deleted).`, 'error'),
      h('a', { href: href(projectPath(entity, project, 'calls')) }, 'Back to the calls'));
    return;
  }
  const rows = traceTree(calls);
  const selected = calls.find((call) => call.id === params.get('call')) ?? rows[0].call;
  const select = (id) => navigate(path, { call: id });
  const changed = (what) => {
    if (what === 'root-deleted') navigate(projectPath(entity, project, 'calls'));
    else if (what === 'deleted') select(selected.parent_id);
    else refresh();
  };
  const chartBox = h('div', { class: 'timeline', role: 'img', 'aria-label': 'Timeline of the trace\'s calls' });
  const root = rows[0].call;
  replace(view,
    h('h1', {}, `Trace: ${root.display_name || opShortName(root.op_name)}`),
    calls.length === MAX_CALLS && state(`Only the first ${MAX_CALLS} calls of this trace are shown.`, 'warning'),
    h('div', { class: 'trace' },
      h('nav', { class: 'tree', 'aria-label': 'Calls of the trace' }, h('ol', {}, rows.map(({ call, depth }) =>
        h('li', { style: `padding-left: ${depth * 1.1}rem` },
          h('a', { href: href(path, { call: call.id }), 'aria-current': call.id === selected.id ? 'true' : null,
            class: call.id === selected.id ? 'selected' : null },
          h('span', { class: 'tree-name' }, call.display_name || opShortName(call.op_name)), ' ',
          statusBadge(call.summary?.weave?.status), ' ',
          h('span', { class: 'tree-latency' }, formatLatency(call.summary?.weave?.latency_ms))))))),
      h('div', { class: 'trace-main' }, chartBox, callDetail(selected, projectId, changed))));
  timeline(chartBox, rows, select);
}
