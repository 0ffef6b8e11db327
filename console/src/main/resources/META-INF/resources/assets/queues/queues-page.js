// Annotation queues (#/p/<entity>/<project>/queues): the project's queues with their progress, a new queue (its
// questions are the project's AnnotationSpecs), and one queue worked through item by item
// (…/queues/<queue id>): the call's inputs and output, a 👍/👎, a note and each of the queue's questions, then
// "Done" or "Skip" (keys: 1 👍, 2 👎, Enter done, s skip); the answers land on the call as its feedback, and the
// queue counts each annotator's items; "Train on this queue's calls…" turns the judged calls into a training job.
// All through the tracing-service's annotation_queues and feedback routes.
import { h, replace, state, formatTime } from '../shared/dom.js';
import { api, opShortName, parseRef } from '../shared/api.js';
import { href, navigate, projectPath, refresh, callHref } from '../shared/router.js';
import { jsonView } from '../shared/json-view.js';
import { trainPanel } from '../calls/train-from-calls.js';

async function annotationSpecs(projectId) {
  const { objs } = await api.post('/objs/query', { project_id: projectId,
    filter: { base_object_classes: ['AnnotationSpec'], latest_only: true } });
  return objs.map((obj) => ({ name: obj.object_id, ref: `weave:///${projectId}/object/${obj.object_id}:${obj.digest}`, schema: obj.val?.field_schema ?? {} }));
}

export async function renderQueues(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  replace(view, h('h1', {}, 'Annotation queues'), state('Loading the queues…'));
  const queues = await api.lines('/annotation_queues/query', { project_id: projectId });
  const [{ stats }, specs] = await Promise.all([
    queues.length ? api.post('/annotation_queues/stats', { project_id: projectId, queue_ids: queues.map((queue) => queue.id) }) : { stats: [] },
    annotationSpecs(projectId)]);
  if (!isCurrent()) return;
  const fields = newQueueFields(specs, 'queue', true);
  const result = h('div', { 'aria-live': 'polite' });
  const form = h('form', { class: 'filters', 'aria-label': 'New queue', onsubmit: async (event) => {
    event.preventDefault();
    try {
      navigate(projectPath(entity, project, 'queues', (await fields.create(projectId)).id));
    } catch (error) {
      replace(result, state(`The queue could not be created: ${error.message}`, 'error'));
    }
  } }, fields.elements, h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Create queue')));
  const statOf = (id) => stats.find((stat) => stat.queue_id === id) ?? stats[queues.findIndex((queue) => queue.id === id)] ?? {};
  replace(view, h('h1', {}, 'Annotation queues'),
    queues.length === 0 ? state('No queue yet. Create one here, then add calls to it from the calls table.') : h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, ['Queue', 'Description', 'Done', 'Created'].map((label) => h('th', { scope: 'col', class: label === 'Done' ? 'num' : null }, label)))),
      h('tbody', {}, queues.map((queue) => h('tr', {},
        h('td', {}, h('a', { href: href(projectPath(entity, project, 'queues', queue.id)) }, queue.name)),
        h('td', {}, queue.description ?? ''),
        h('td', { class: 'num' }, `${statOf(queue.id).completed_items ?? 0} of ${statOf(queue.id).total_items ?? 0}`),
        h('td', {}, formatTime(queue.created_at)))))),
    h('h2', {}, 'New queue'), form, result);
}

/**
 * A new queue's fields (name, description, its questions among the project's annotation specs), and `create`, which
 * makes it and answers its id and name. `required`: whether the name must be given (it may be offered only as one choice).
 */
function newQueueFields(specs, prefix, required) {
  const name = h('input', { id: `${prefix}-name`, type: 'text', required });
  const description = h('input', { id: `${prefix}-description`, type: 'text' });
  const questions = specs.map((spec) => h('label', { class: 'check' }, h('input', { type: 'checkbox', value: spec.ref }), ` ${spec.name}`));
  const elements = [
    h('div', { class: 'field' }, h('label', { for: `${prefix}-name` }, 'Name'), name),
    h('div', { class: 'field' }, h('label', { for: `${prefix}-description` }, 'Description'), description),
    h('div', { class: 'field' }, h('span', { class: 'field-label' }, 'Questions (annotation specs)'),
      questions.length ? h('div', {}, questions) : h('span', {}, 'none in this project: reactions and notes only'))];
  const create = async (projectId) => {
    if (!name.value.trim()) throw new Error('the new queue needs a name');
    const scorerRefs = questions.map((label) => label.querySelector('input')).filter((box) => box.checked).map((box) => box.value);
    const { id } = await api.post('/annotation_queues', { project_id: projectId, name: name.value.trim(),
      description: description.value.trim(), scorer_refs: scorerRefs });
    return { id, name: name.value.trim() };
  };
  return { elements, create };
}

/** A form field for one annotation spec's JSON schema: a number, a boolean, one of an enum, or text. */
function specInput(spec, id) {
  const schema = spec.schema ?? {};
  if (Array.isArray(schema.enum)) {
    return [h('select', { id }, h('option', { value: '' }, '—'), schema.enum.map((value) => h('option', { value: JSON.stringify(value) }, String(value)))),
      (element) => (element.value === '' ? undefined : JSON.parse(element.value))];
  }
  if (schema.type === 'boolean') {
    return [h('select', { id }, h('option', { value: '' }, '—'), h('option', { value: 'true' }, 'yes'), h('option', { value: 'false' }, 'no')),
      (element) => (element.value === '' ? undefined : element.value === 'true')];
  }
  if (schema.type === 'integer' || schema.type === 'number') {
    return [h('input', { id, type: 'number', step: schema.type === 'integer' ? '1' : 'any', min: schema.minimum, max: schema.maximum }),
      (element) => (element.value === '' ? undefined : Number(element.value))];
  }
  return [h('input', { id, type: 'text' }), (element) => (element.value.trim() === '' ? undefined : element.value.trim())];
}

export async function renderQueue(view, [entity, project, queueId], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  replace(view, h('h1', {}, 'Annotation queue'), state('Loading the queue…'));
  const [{ queue }, { items }, specs] = await Promise.all([
    api.get(`/annotation_queues/${encodeURIComponent(queueId)}?project_id=${encodeURIComponent(projectId)}`),
    api.post(`/annotation_queues/${encodeURIComponent(queueId)}/items/query`, { project_id: projectId, include_position: true }),
    annotationSpecs(projectId)]);
  if (!isCurrent()) return;
  const questions = specs.filter((spec) => (queue.scorer_refs ?? []).some((ref) => parseRef(ref)?.name === spec.name));
  const left = items.filter((item) => item.annotation_state === 'unstarted' || item.annotation_state === 'in_progress');
  const byAnnotator = {};
  for (const item of items) {
    if (item.annotator_user_id && (item.annotation_state === 'completed' || item.annotation_state === 'skipped')) {
      byAnnotator[item.annotator_user_id] = (byAnnotator[item.annotator_user_id] ?? 0) + 1;
    }
  }
  const progress = h('section', { 'aria-label': 'Progress' },
    h('p', { class: 'queue-progress' }, `${items.length - left.length} of ${items.length} done`),
    h('progress', { max: items.length || 1, value: items.length - left.length }),
    Object.keys(byAnnotator).length === 0 ? null : h('ul', { class: 'figures' }, Object.entries(byAnnotator).map(([user, count]) =>
      h('li', {}, h('span', { class: 'figure-name' }, user), ` ${count}`))));
  // What the annotators judged is training data: the queue's calls go to the calls table's training panel.
  const trainingPanel = h('div');
  const train = items.length === 0 ? null : h('button', { type: 'button', class: 'secondary', id: 'train-queue',
    onclick: () => replace(trainingPanel, trainPanel(entity, project, items.map((queued) => queued.call_id), () => replace(trainingPanel))) },
  'Train on this queue\'s calls…');
  const heading = [h('h1', {}, queue.name), queue.description ? h('p', {}, queue.description) : null,
    h('p', {}, h('a', { href: href(projectPath(entity, project, 'queues')) }, 'All queues')), progress, train, trainingPanel];
  if (left.length === 0) {
    replace(view, ...heading, state(items.length === 0 ? 'This queue has no calls: tick calls in the calls table and add them.' : 'Every item of this queue is done.'));
    return;
  }
  const item = left[0];
  const [call] = await api.lines('/calls/stream_query', { project_id: projectId, filter: { call_ids: [item.call_id] } });
  if (!isCurrent()) return;
  const callRef = `weave:///${projectId}/call/${item.call_id}`;
  const feedback = (type, payload, extra = {}) => api.post('/feedback/create', { project_id: projectId, weave_ref: callRef, feedback_type: type, payload, ...extra });
  const message = h('div', { 'aria-live': 'polite' });
  const note = h('textarea', { id: 'queue-note', rows: 2 });
  const fields = questions.map((spec, index) => {
    const [input, read] = specInput(spec, `question-${index}`);
    return { spec, input, read };
  });
  let reaction = null;
  const react = (emoji) => {
    reaction = emoji;
    replace(message, state(`${emoji} chosen`));
  };
  const finish = async (annotationState) => {
    try {
      if (annotationState === 'completed') {
        if (reaction) await feedback('wandb.reaction.1', { emoji: reaction });
        if (note.value.trim()) await feedback('wandb.note.1', { note: note.value.trim() });
        for (const { spec, input, read } of fields) {
          const value = read(input);
          if (value !== undefined) await feedback(`wandb.annotation.${spec.name}`, { value }, { annotation_ref: spec.ref });
        }
      }
      await api.post(`/annotation_queues/${encodeURIComponent(queueId)}/items/${encodeURIComponent(item.id)}/progress`,
        { project_id: projectId, annotation_state: annotationState });
      refresh();
    } catch (error) {
      replace(message, state(`Not saved: ${error.message}`, 'error'));
    }
  };
  const keys = (event) => {
    if (!isCurrent()) {
      document.removeEventListener('keydown', keys);
      return;
    }
    if (['INPUT', 'TEXTAREA', 'SELECT'].includes(event.target.tagName)) return;
    if (event.key === '1') react('👍');
    else if (event.key === '2') react('👎');
    else if (event.key === 'Enter') { document.removeEventListener('keydown', keys); finish('completed'); }
    else if (event.key === 's') { document.removeEventListener('keydown', keys); finish('skipped'); }
  };
  document.addEventListener('keydown', keys);
  replace(view, ...heading,
    h('section', { class: 'card', 'aria-label': 'Item' },
      h('h2', {}, `Item ${item.position_in_queue ?? ''}: `, h('a', { href: callHref(entity, project, call?.trace_id ?? item.call_trace_id, item.call_id) },
        call?.display_name || opShortName(call?.op_name ?? item.call_op_name))),
      h('h3', {}, 'Inputs'), jsonView(call?.inputs ?? null, { open: 2 }),
      h('h3', {}, 'Output'), jsonView(call?.output ?? null, { open: 2 }),
      h('form', { class: 'queue-form', onsubmit: (event) => { event.preventDefault(); finish('completed'); } },
        h('div', { class: 'field actions' },
          h('button', { type: 'button', class: 'secondary', 'aria-label': 'Thumbs up', onclick: () => react('👍') }, '👍'),
          h('button', { type: 'button', class: 'secondary', 'aria-label': 'Thumbs down', onclick: () => react('👎') }, '👎')),
        fields.map(({ spec, input }) => h('div', { class: 'field' }, h('label', { for: input.id }, spec.name), input)),
        h('div', { class: 'field' }, h('label', { for: 'queue-note' }, 'Note'), note),
        h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Done'),
          h('button', { type: 'button', class: 'secondary', onclick: () => finish('skipped') }, 'Skip')),
        h('p', { class: 'hint' }, 'Keys: 1 👍, 2 👎, Enter done, s skip.')),
      message));
}

/** "Add to queue…" for the calls table's ticked calls. */
export function addToQueuePanel(entity, project, ids, close) {
  const projectId = `${entity}/${project}`;
  const NEW = '';
  const queue = h('select', { id: 'add-queue', onchange: () => { fresh.hidden = queue.value !== NEW; } },
    h('option', { value: NEW }, 'A new queue…'));
  const fresh = h('fieldset', { class: 'train-form' }, h('legend', {}, 'New queue'), h('span', {}, 'Loading the questions…'));
  api.lines('/annotation_queues/query', { project_id: projectId }).then((queues) => {
    queue.append(...queues.map((one) => h('option', { value: one.id }, one.name)));
  }).catch((error) => replace(result, state(`The queues could not be listed: ${error.message}`, 'error')));
  let fields = null;
  annotationSpecs(projectId).then((specs) => {
    fields = newQueueFields(specs, 'add-queue-new', false);
    replace(fresh, h('legend', {}, 'New queue'), fields.elements);
  }).catch((error) => replace(fresh, state(`The questions could not be read: ${error.message}`, 'error')));
  const result = h('div', { 'aria-live': 'polite' });
  return h('section', { class: 'train-panel', 'aria-label': 'Add the selected calls to a queue' },
    h('h2', {}, `Add ${ids.length} selected call${ids.length === 1 ? '' : 's'} to an annotation queue`),
    h('form', { class: 'train-form', onsubmit: async (event) => {
      event.preventDefault();
      try {
        let queueId = queue.value;
        if (queueId === NEW) {
          if (!fields) throw new Error('the questions are still loading');
          const created = await fields.create(projectId);
          queueId = created.id;
          // Sent again, the calls go to the queue just made, not to another new one.
          queue.append(h('option', { value: queueId, selected: true }, created.name));
          fresh.hidden = true;
        }
        const added = await api.post(`/annotation_queues/${encodeURIComponent(queueId)}/items`, { project_id: projectId, call_ids: ids, display_fields: [] });
        replace(result, state(`${added.added_count} added (${added.duplicates} already there).`),
          h('a', { href: href(projectPath(entity, project, 'queues', queueId)) }, 'Work through the queue'));
      } catch (error) {
        replace(result, state(`The calls could not be added: ${error.message}`, 'error'));
      }
    } },
    h('div', { class: 'field' }, h('label', { for: 'add-queue' }, 'Queue'), queue), fresh,
    h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Add to queue'),
      h('button', { type: 'button', class: 'secondary', onclick: close }, 'Close'))),
    result);
}
