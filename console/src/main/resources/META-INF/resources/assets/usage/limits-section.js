// The limits and budgets of a project and of the API keys used in it, with what each used in the windows now
// running (GET /v1/limits?project= of the gateway): requests and tokens this minute, tokens today and this month,
// each against its limit. A team's admins (a user's own projects: that user) set and remove them here
// (PUT / DELETE /v1/limits, …/keys/<key id>); members only read them, as the API decides.
import { h, replace, state, formatNumber } from '../shared/dom.js';
import { api } from '../shared/api.js';

const KINDS = [
  ['requests_per_minute', 'Requests / min', 'requests_this_minute'],
  ['tokens_per_minute', 'Tokens / min', 'tokens_this_minute'],
  ['tokens_per_day', 'Tokens / day', 'tokens_today'],
  ['tokens_per_month', 'Tokens / month', 'tokens_this_month'],
];

function against(used, limit) {
  return limit === null || limit === undefined ? `${formatNumber(used)} (no limit)` : `${formatNumber(used)} of ${formatNumber(limit)}`;
}

function limitsPath(projectId, keyId) {
  const query = new URLSearchParams({ project: projectId });
  return keyId ? `/v1/limits/keys/${encodeURIComponent(keyId)}?${query}` : `/v1/limits?${query}`;
}

export function limitsSection(projectId, isCurrent) {
  const box = h('div', {}, state('Loading the limits…'));
  const message = h('div', { role: 'status' });
  const section = h('section', { class: 'card', 'aria-labelledby': 'usage-limits' },
    h('h2', { id: 'usage-limits' }, 'Limits and budgets'), box, message);

  async function load() {
    let report;
    try {
      report = await api.get(limitsPath(projectId));
    } catch (error) {
      if (isCurrent()) replace(box, state(`The limits could not be loaded: ${error.message}`, 'error'));
      return;
    }
    if (!isCurrent()) return;
    const remove = (keyId, label) => h('button', { type: 'button', class: 'secondary', onclick: async () => {
      try {
        await api.delete(limitsPath(projectId, keyId));
        replace(message, state(`The limits of ${label} are removed.`));
        await load();
      } catch (error) {
        replace(message, state(`The limits could not be removed: ${error.message}`, 'error'));
      }
    } }, `Remove the limits of ${label}`);
    const row = (label, limits, use, keyId, removable) => h('tr', {},
      h('th', { scope: 'row' }, label),
      KINDS.map(([kind, , used]) => h('td', { class: 'num' }, against(use[used], limits?.[kind]))),
      report.may_change ? h('td', {}, removable ? remove(keyId, label) : null) : null);
    const keyLabel = (key) => `key ${key.hint ?? key.api_key_id}${key.user ? ` (${key.user})` : ''}`;
    const table = h('div', { class: 'table-wrap' }, h('table', { class: 'grid limits' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Used by'),
        KINDS.map(([, title]) => h('th', { scope: 'col', class: 'num' }, title)),
        report.may_change ? h('th', { scope: 'col' }, '') : null)),
      h('tbody', {},
        row('This project', report.limits.in_force, report.limits.use, null, report.limits.set !== null),
        report.keys.map((key) => row(keyLabel(key), key.set, key.use, key.api_key_id, key.set !== null)))));
    const explained = h('p', {}, 'Use is counted per UTC minute, day and calendar month while a limit of the project '
      + 'or key is in force; a request over a limit is answered 429. The month ends '
      + `${new Date(report.resets.month * 1000).toISOString().slice(0, 10)} (UTC).`);
    replace(box, explained, table, report.may_change ? form(report) : null);
  }

  function form(report) {
    const subject = h('select', { id: 'limits-subject' },
      h('option', { value: '' }, 'This project'),
      report.keys.map((key) => h('option', { value: key.api_key_id }, `key ${key.hint ?? key.api_key_id}`)),
      h('option', { value: '?' }, 'Another key (by id)…'));
    const keyId = h('input', { id: 'limits-key-id', placeholder: 'API key id', autocomplete: 'off', hidden: true,
      'aria-label': 'API key id' });
    const inputs = KINDS.map(([kind, title]) => [kind, title,
      h('input', { id: `limits-${kind}`, type: 'number', min: 0, step: 1, placeholder: 'no limit' })]);
    // the form starts from the chosen subject's own limits (blank: none set)
    const fill = () => {
      const set = subject.value === '' ? report.limits.set : report.keys.find((key) => key.api_key_id === subject.value)?.set;
      for (const [kind, , input] of inputs) input.value = set?.[kind] ?? '';
    };
    subject.addEventListener('change', () => {
      keyId.hidden = subject.value !== '?';
      fill();
    });
    fill();
    const limitsForm = h('form', { class: 'form-row', onsubmit: async (event) => {
      event.preventDefault();
      const body = {};
      for (const [kind, , input] of inputs) body[kind] = input.value === '' ? null : Number(input.value);
      const chosenKey = subject.value === '?' ? keyId.value.trim() : subject.value;
      try {
        await api.put(limitsPath(projectId, chosenKey || null), body);
        replace(message, state(`The limits of ${chosenKey ? `key ${chosenKey}` : 'this project'} are set.`));
        await load();
      } catch (error) {
        replace(message, state(`The limits could not be set: ${error.message}`, 'error'));
      }
    } },
    h('div', { class: 'field' }, h('label', { for: 'limits-subject' }, 'Set the limits of'), subject, keyId),
    inputs.map(([kind, title, input]) => h('div', { class: 'field' }, h('label', { for: `limits-${kind}` }, title), input)),
    h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Set limits')));
    return limitsForm;
  }

  load();
  return section;
}
