// One call of a trace: what went in and out, its exception, attributes, usage and costs per model, its
// feedback (and adding reactions and notes), renaming and deleting it.
import { h, replace, state, formatTime, formatLatency, formatNumber, formatCost } from '../shared/dom.js';
import { api, opShortName, parseRef } from '../shared/api.js';
import { href, projectPath } from '../shared/router.js';
import { statusBadge } from '../shared/status.js';
import { jsonView } from '../shared/json-view.js';
import { emoji } from '../shared/emoji.js';
import { chatView, isChat } from './chat-view.js';
import { exceptionView } from './exception-view.js';

const REACTIONS = [['👍', 'thumbs up'], ['👎', 'thumbs down'], ['🎉', 'party'], ['❤️', 'heart'], ['😕', 'confused']];

/** @param changed called after a rename or delete, to reload the trace */
export function callDetail(call, projectId, changed) {
  const [entity, project] = projectId.split('/');
  const weave = call.summary?.weave ?? {};
  const opRef = parseRef(call.op_name);
  const section = (title, ...content) => h('section', { class: 'detail-section', 'aria-label': title }, h('h3', {}, title), content);
  return h('article', { class: 'call-detail', 'aria-labelledby': 'call-title' },
    h('header', {}, h('h2', { id: 'call-title' }, call.display_name || opShortName(call.op_name)), ' ', statusBadge(weave.status)),
    h('dl', { class: 'facts' },
      h('dt', {}, 'Op'), h('dd', {}, opRef ? h('a', { href: href(projectPath(entity, project, 'objects', opRef.name), { digest: opRef.digest }) },
        `${opRef.name}:${opRef.digest?.slice(0, 8) ?? ''}`) : call.op_name),
      h('dt', {}, 'Call id'), h('dd', { class: 'mono' }, call.id),
      h('dt', {}, 'Started'), h('dd', {}, formatTime(call.started_at)),
      h('dt', {}, 'Latency'), h('dd', {}, weave.latency_ms === undefined ? 'still running' : formatLatency(weave.latency_ms)),
      h('dt', {}, 'User'), h('dd', {}, call.svc_user_id ?? ''),
      call.thread_id && [h('dt', {}, 'Thread'), h('dd', {}, h('a', { href: href(projectPath(entity, project, 'threads', call.thread_id)) }, call.thread_id))]),
    renameForm(call, projectId, changed),
    isChat(call) && section('Chat', chatView(call)),
    section('Inputs', jsonView(call.inputs)),
    section('Output', call.ended_at ? jsonView(call.output) : state('The call has not ended yet.')),
    call.exception && section('Exception', exceptionView(call.exception)),
    section('Attributes', jsonView(call.attributes, { open: 1 })),
    usageSection(call, section),
    feedbackSection(call, projectId, section),
    deleteControl(call, projectId, changed));
}

function renameForm(call, projectId, changed) {
  const input = h('input', { id: 'display-name', value: call.display_name ?? '', placeholder: opShortName(call.op_name) });
  const message = h('span', { 'aria-live': 'polite' });
  return h('form', { class: 'inline-form', onsubmit: async (event) => {
    event.preventDefault();
    try {
      await api.post('/call/update', { project_id: projectId, call_id: call.id, display_name: input.value.trim() });
      changed();
    } catch (error) {
      replace(message, state(error.message, 'error'));
    }
  } }, h('label', { for: 'display-name' }, 'Display name'), input, h('button', { type: 'submit' }, 'Rename'), message);
}

function usageSection(call, section) {
  const usage = call.summary?.usage ?? {};
  const costs = call.summary?.weave?.costs ?? {};
  const models = [...new Set([...Object.keys(usage), ...Object.keys(costs)])];
  if (models.length === 0) return section('Usage and costs', state('No LLM usage was recorded for this call.'));
  return section('Usage and costs', h('table', { class: 'grid' },
    h('thead', {}, h('tr', {}, ['Model', 'Requests', 'Prompt tokens', 'Completion tokens', 'Total tokens', 'Cost']
      .map((label, index) => h('th', { scope: 'col', class: index ? 'num' : null }, label)))),
    h('tbody', {}, models.map((model) => {
      const used = usage[model] ?? {};
      const cost = costs[model];
      const prompt = used.prompt_tokens ?? used.input_tokens;
      const completion = used.completion_tokens ?? used.output_tokens;
      return h('tr', {}, h('td', {}, model), h('td', { class: 'num' }, formatNumber(used.requests)),
        h('td', { class: 'num' }, formatNumber(prompt)), h('td', { class: 'num' }, formatNumber(completion)),
        h('td', { class: 'num' }, formatNumber(used.total_tokens ?? (prompt ?? 0) + (completion ?? 0))),
        h('td', { class: 'num' }, cost ? formatCost((cost.prompt_tokens_total_cost ?? 0) + (cost.completion_tokens_total_cost ?? 0)) : ''));
    }))));
}

function feedbackSection(call, projectId, section) {
  const weaveRef = `weave:///${projectId}/call/${call.id}`;
  const list = h('div', { class: 'feedback-list', 'aria-live': 'polite' }, state('Loading feedback…'));
  const load = async () => {
    try {
      const { result } = await api.post('/feedback/query', { project_id: projectId,
        query: { $expr: { $eq: [{ $getField: 'weave_ref' }, { $literal: weaveRef }] } },
        sort_by: [{ field: 'created_at', direction: 'asc' }] });
      replace(list, result.length === 0 ? state('No feedback yet.') : h('ul', {}, result.map(feedbackItem)));
    } catch (error) {
      replace(list, state(`Feedback could not be loaded: ${error.message}`, 'error'));
    }
  };
  const create = async (feedbackType, payload) => {
    try {
      await api.post('/feedback/create', { project_id: projectId, weave_ref: weaveRef, feedback_type: feedbackType, payload });
      await load();
    } catch (error) {
      list.prepend(state(`The feedback was not saved: ${error.message}`, 'error'));
    }
  };
  const note = h('textarea', { id: 'feedback-note', rows: 2, maxlength: 1024 });
  load();
  return section('Feedback', list,
    h('div', { class: 'reactions', role: 'group', 'aria-label': 'Add a reaction' }, REACTIONS.map(([glyph, name]) =>
      h('button', { type: 'button', class: 'reaction', 'aria-label': `React with ${name}`, title: `React with ${name}`,
        onclick: () => create('wandb.reaction.1', { emoji: glyph }) }, emoji(glyph, name)))),
    h('form', { class: 'inline-form', onsubmit: async (event) => {
      event.preventDefault();
      if (!note.value.trim()) return;
      await create('wandb.note.1', { note: note.value.trim() });
      note.value = '';
    } }, h('label', { for: 'feedback-note' }, 'Note'), note, h('button', { type: 'submit' }, 'Add note')));
}

function feedbackItem(feedback) {
  const who = `${feedback.svc_user_id ?? feedback.creator ?? ''}, ${formatTime(feedback.created_at)}`;
  if (feedback.feedback_type === 'wandb.reaction.1') {
    // The alias follows as text, so where emoji do not draw only the glyph goes.
    return h('li', { class: 'feedback-reaction' },
      h('span', { class: 'emoji emoji-glyph', title: feedback.payload.alias }, feedback.payload.emoji),
      ` ${feedback.payload.alias ?? ''} — ${who}`);
  }
  if (feedback.feedback_type === 'wandb.note.1') {
    return h('li', { class: 'feedback-note' }, h('q', {}, feedback.payload.note), ` — ${who}`);
  }
  return h('li', {}, h('strong', {}, feedback.feedback_type), ' ', jsonView(feedback.payload, { open: 0 }), ` — ${who}`);
}

function deleteControl(call, projectId, changed) {
  const dialog = h('dialog', { 'aria-labelledby': 'delete-title' },
    h('h2', { id: 'delete-title' }, 'Delete this call?'),
    h('p', {}, 'The call and every call below it are deleted. This cannot be undone.'),
    h('form', { method: 'dialog' },
      h('button', { value: 'cancel', class: 'secondary' }, 'Cancel'),
      h('button', { value: 'delete', class: 'danger' }, 'Delete')));
  dialog.addEventListener('close', async () => {
    if (dialog.returnValue !== 'delete') return;
    await api.post('/calls/delete', { project_id: projectId, call_ids: [call.id] });
    changed(call.parent_id ? 'deleted' : 'root-deleted');
  });
  return h('div', { class: 'danger-zone' },
    h('button', { type: 'button', class: 'danger', onclick: () => dialog.showModal() }, 'Delete call…'), dialog);
}
