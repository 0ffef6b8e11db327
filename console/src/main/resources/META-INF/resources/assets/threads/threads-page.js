// A project's threads (turn count, first and last turn, latency quantiles) and one thread read as a conversation.
import { h, replace, state, formatTime, formatLatency, formatNumber } from '../shared/dom.js';
import { api, opShortName } from '../shared/api.js';
import { href, projectPath, callHref } from '../shared/router.js';
import { statusBadge } from '../shared/status.js';
import { jsonView } from '../shared/json-view.js';
import { messageText } from '../trace/chat-view.js';
import { exceptionHeadline } from '../trace/exception-view.js';

export async function renderThreads(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  replace(view, h('h1', {}, 'Threads'), state('Loading threads…'));
  const threads = await api.lines('/threads/stream_query', { project_id: projectId,
    sort_by: [{ field: 'last_updated', direction: 'desc' }], limit: 200 });
  if (!isCurrent()) return;
  replace(view, h('h1', {}, 'Threads'), threads.length === 0 ? state('This project has no threads: calls join one when they carry a thread id.')
    : h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, ['Thread', 'Turns', 'Started', 'Last updated', 'p50 latency', 'p99 latency']
        .map((label, index) => h('th', { scope: 'col', class: [1, 4, 5].includes(index) ? 'num' : null }, label)))),
      h('tbody', {}, threads.map((thread) => h('tr', {},
        h('td', {}, h('a', { href: href(projectPath(entity, project, 'threads', thread.thread_id)) }, thread.thread_id)),
        h('td', { class: 'num' }, formatNumber(thread.turn_count)),
        h('td', {}, formatTime(thread.start_time)), h('td', {}, formatTime(thread.last_updated)),
        h('td', { class: 'num' }, formatLatency(thread.p50_turn_duration_ms)),
        h('td', { class: 'num' }, formatLatency(thread.p99_turn_duration_ms)))))));
}

/** What the person said in a turn: the last user message of a chat, else the turn's one text input. */
function said(inputs) {
  if (Array.isArray(inputs?.messages)) {
    const user = [...inputs.messages].reverse().find((message) => message.role === 'user');
    if (user) return messageText(user.content);
  }
  const texts = Object.entries(inputs ?? {}).filter(([name, value]) => name !== 'self' && typeof value === 'string');
  return texts.length === 1 ? texts[0][1] : null;
}

/** What the turn answered: text, a chat completion's first choice, or an object's one text field. */
function answered(output) {
  if (typeof output === 'string') return output;
  if (Array.isArray(output?.choices)) return messageText(output.choices[0]?.message?.content ?? output.choices[0]?.text ?? '');
  const texts = Object.values(output ?? {}).filter((value) => typeof value === 'string');
  return texts.length === 1 ? texts[0] : null;
}

/** One thread read as a conversation: each turn what was said and answered, the turn's call a click away. */
export async function renderThread(view, [entity, project, threadId], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  replace(view, h('h1', {}, `Thread ${threadId}`), state('Loading the turns…'));
  const turns = (await api.lines('/calls/stream_query', { project_id: projectId, filter: { thread_ids: [threadId] },
    sort_by: [{ field: 'started_at', direction: 'asc' }], limit: 1000 })).filter((call) => call.id === call.turn_id);
  if (!isCurrent()) return;
  replace(view, h('h1', {}, `Thread ${threadId}`), turns.length === 0 ? state('This thread has no turns.')
    : h('ol', { class: 'turns', 'aria-label': 'Conversation' }, turns.map((turn, index) => {
      const question = said(turn.inputs);
      const answer = answered(turn.output);
      return h('li', { class: 'card turn' },
        h('h2', {}, h('a', { href: callHref(entity, project, turn.trace_id, turn.id) },
          `Turn ${index + 1}: ${turn.display_name || opShortName(turn.op_name)}`), ' ', statusBadge(turn.summary?.weave?.status)),
        h('p', { class: 'turn-meta' }, `${formatTime(turn.started_at)} · ${formatLatency(turn.summary?.weave?.latency_ms)}`),
        h('ol', { class: 'chat' },
          h('li', { class: 'chat-user' }, h('span', { class: 'chat-role' }, 'user'),
            h('div', { class: 'chat-text' }, question ?? jsonView(turn.inputs, { open: 1 }))),
          turn.exception
            ? h('li', { class: 'chat-error' }, h('span', { class: 'chat-role' }, 'error'), h('div', { class: 'chat-text' }, exceptionHeadline(turn.exception)))
            : h('li', { class: 'chat-assistant' }, h('span', { class: 'chat-role' }, 'assistant'),
              h('div', { class: 'chat-text' }, answer ?? jsonView(turn.output, { open: 1 })))));
    })));
}
