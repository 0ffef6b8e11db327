// What an object version page does beyond showing the value: its tags and aliases (set, moved and removed through
// the tracing-service's label routes; moving an alias fires ADD_ARTIFACT_ALIAS automations), the differences from
// another version, and Weave's prompt objects read as messages.
import { h, replace, state } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { refresh } from '../shared/router.js';
import { jsonDifferences } from '../shared/json-diff.js';
import { messagesView } from '../trace/chat-view.js';

/** The aliases and tags of one version, each removable, and a form to add one of either. */
export function labelsSection(projectId, objectId, version) {
  const feedback = h('div', { 'aria-live': 'polite' });
  const act = async (work) => {
    replace(feedback, state('Saving…'));
    try {
      await work();
      refresh();
    } catch (error) {
      replace(feedback, state(error.message, 'error'));
    }
  };
  const objectPath = `/objs/${encodeURIComponent(objectId)}`;
  const chip = (text, remove, kind) => h('li', { class: `label label-${kind}` }, text,
    remove && h('button', { type: 'button', class: 'remove', 'aria-label': `Remove the ${kind} ${text}`, onclick: () => act(remove) }, '×'));
  const aliases = (version.aliases ?? []).filter((alias) => alias !== 'latest');
  const name = h('input', { id: 'label-name', type: 'text', required: true, placeholder: 'production' });
  const kind = h('select', { id: 'label-kind' }, h('option', { value: 'alias' }, 'Alias (moves here from another version)'), h('option', { value: 'tag' }, 'Tag'));
  return h('section', { 'aria-label': 'Aliases and tags' }, h('h3', {}, 'Aliases and tags'),
    h('ul', { class: 'labels' },
      version.is_latest ? chip('latest', null, 'alias') : null,
      aliases.map((alias) => chip(alias, () => api.post(`${objectPath}/aliases/remove`, { project_id: projectId, aliases: [alias] }), 'alias')),
      (version.tags ?? []).map((tag) => chip(tag, () => api.post(`${objectPath}/versions/${encodeURIComponent(version.digest)}/tags/remove`,
        { project_id: projectId, tags: [tag] }), 'tag'))),
    h('form', { class: 'train-form', onsubmit: (event) => {
      event.preventDefault();
      const value = name.value.trim();
      act(() => (kind.value === 'alias'
        ? api.put(`${objectPath}/aliases`, { project_id: projectId, digest: version.digest, aliases: [value] })
        : api.put(`${objectPath}/versions/${encodeURIComponent(version.digest)}/tags`, { project_id: projectId, tags: [value] })));
    } },
    h('div', { class: 'field' }, h('label', { for: 'label-name' }, 'Name'), name),
    h('div', { class: 'field' }, h('label', { for: 'label-kind' }, 'Kind'), kind),
    h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Add'))),
    feedback);
}

const shown = (value) => (value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value));

/** The differences of this version from another, as a table. */
export function differencesTable(before, after, beforeLabel, afterLabel) {
  const rows = jsonDifferences(before, after);
  return h('section', { 'aria-label': 'Differences' }, h('h3', {}, `Changes from ${beforeLabel} to ${afterLabel}`),
    rows.length === 0 ? state('The two versions hold the same value.') : h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, ['Field', beforeLabel, afterLabel].map((label) => h('th', { scope: 'col' }, label)))),
      h('tbody', {}, rows.map(([path, was, is]) => h('tr', {}, h('th', { scope: 'row' }, h('code', {}, path)),
        h('td', { class: 'removed' }, shown(was)), h('td', { class: 'added' }, shown(is)))))));
}

/** Weave's prompt objects (MessagesPrompt, StringPrompt) as the messages a model would get; null for anything else. */
export function promptView(val) {
  const messages = val?._class_name === 'MessagesPrompt' && Array.isArray(val.messages) ? val.messages
    : val?._class_name === 'StringPrompt' && typeof val.content === 'string' ? [{ role: 'user', content: val.content }] : null;
  return messages && h('section', { 'aria-label': 'Prompt' }, h('h3', {}, 'Prompt'), messagesView(messages));
}
