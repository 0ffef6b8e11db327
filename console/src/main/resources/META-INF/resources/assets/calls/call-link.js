// A call's own address (#/p/entity/project/calls/<id>), where the console sends the link a Weave SDK prints for a
// traced call: it finds the call's trace and opens the trace on that call. The SDK prints the link before its
// batch reaches the server, so a call not found yet is looked for again for a few seconds.
import { h, replace, state } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { href, projectPath, callHref } from '../shared/router.js';

const TRIES = 10;
const PAUSE_MS = 1000;

export async function renderCallLink(view, [entity, project, callId], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  replace(view, h('h1', {}, 'Call'), state(`Looking for call ${callId} in ${projectId}…`));
  for (let attempt = 1; attempt <= TRIES; attempt++) {
    const [call] = await api.lines('/calls/stream_query', { project_id: projectId, filter: { call_ids: [callId] },
      columns: ['id', 'trace_id'], limit: 1 });
    if (!isCurrent()) return;
    if (call) {
      // replace, not assign: Back leaves the console instead of coming back here to be sent on again
      location.replace(callHref(entity, project, call.trace_id, call.id));
      return;
    }
    if (attempt < TRIES) await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    if (!isCurrent()) return;
  }
  replace(view, h('h1', {}, 'Call'), state(`No call ${callId} exists in ${projectId} (or it has not arrived yet).`, 'error'),
    h('a', { href: href(projectPath(entity, project, 'calls')) }, 'Go to the calls'));
}
