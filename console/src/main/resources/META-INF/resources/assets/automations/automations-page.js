// Automations of an entity: which team (chosen from the user's teams), the list, creating one (scope, event,
// alias or tag filter, webhook, payload template), and one automation with its settings.
import { h, replace, state, formatTime } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { href, navigate } from '../shared/router.js';
import { confirmAction } from '../shared/confirm.js';
import { automationEntities } from '../shared/identity.js';
import { automationsHeader, automationsPath, entityContext, notYours } from './automations-nav.js';
import { payloadEditor } from './payload-editor.js';
import { deliveryHistory } from './delivery-history.js';

const EVENTS = [
  ['LINK_ARTIFACT', 'A version is linked (e.g. a new training checkpoint)'],
  ['ADD_ARTIFACT_ALIAS', 'An alias is added or moved (needs an alias filter)'],
  ['CREATE_ARTIFACT', 'A version is created'],
  ['ADD_ARTIFACT_TAG', 'A tag is added'],
];
const SCOPES = [
  ['PROJECT', 'A project or registry'],
  ['ARTIFACT_COLLECTION', 'One collection of a project'],
  ['ENTITY', 'Every project of the team'],
];
const DEFAULT_TEMPLATE = '{\n  "event": "${event_type}",\n  "version": "${artifact_version_string}",\n  "author": "${event_author}"\n}';

export async function renderAutomationsHome(view, captured, params, isCurrent) {
  replace(view, h('h1', {}, 'Automations'), state('Loading your teams…'));
  const entities = await automationEntities();
  if (!isCurrent()) return;
  if (entities.length === 1) {
    navigate(automationsPath(entities[0].name));
    return;
  }
  replace(view, h('h1', {}, 'Automations'),
    h('p', {}, 'Automations call a webhook when an artifact event happens: a model gets a new checkpoint, an alias moves. Choose whose:'),
    entities.length === 0 ? state('You belong to no team. Create one on the Teams page.')
      : h('ul', { class: 'entity-list' }, entities.map((entity) => h('li', {},
        h('a', { href: href(automationsPath(entity.name)) }, entity.name), ` — ${entity.kind}`))));
}

export async function renderAutomationList(view, [entity], params, isCurrent) {
  replace(view, h('h1', {}, 'Automations'), state('Loading the automations…'));
  const context = await entityContext(entity);
  if (!isCurrent()) return;
  if (!context.entry) {
    replace(view, notYours(entity, context.entities));
    return;
  }
  const [{ data: automations }, { data: webhooks }] = await Promise.all([
    api.get(`/automations?entity=${encodeURIComponent(entity)}`), api.get(`/webhooks?entity=${encodeURIComponent(entity)}`)]);
  if (!isCurrent()) return;
  const webhookName = (id) => webhooks.find((webhook) => webhook.id === id)?.name ?? id;
  replace(view, automationsHeader(context, entity, ''),
    h('section', { class: 'card', 'aria-label': 'Automations' }, h('h2', {}, 'Automations'),
      automations.length === 0 ? state(`${entity} has no automations yet.`) : h('table', { class: 'grid' },
        h('thead', {}, h('tr', {}, ['Name', 'Scope', 'Event', 'Filter', 'Webhook', 'State'].map((label) => h('th', { scope: 'col' }, label)))),
        h('tbody', {}, automations.map((automation) => h('tr', {},
          h('td', {}, h('a', { href: href(automationsPath(entity, 'automation', automation.id)) }, automation.name)),
          h('td', {}, describeScope(automation.scope)),
          h('td', {}, automation.event.type),
          h('td', { class: 'mono' }, describeFilter(automation.event.filter)),
          h('td', {}, webhookName(automation.action.webhook_id)),
          h('td', {}, automation.enabled ? 'Enabled' : 'Disabled')))))),
    context.entry.manage && h('p', {}, h('a', { class: 'button-link', href: href(automationsPath(entity, 'new')) }, 'New automation')));
}

export async function renderNewAutomation(view, [entity], params, isCurrent) {
  replace(view, h('h1', {}, 'Automations'), state('Loading…'));
  const context = await entityContext(entity);
  if (!isCurrent()) return;
  if (!context.entry) {
    replace(view, notYours(entity, context.entities));
    return;
  }
  const [{ data: webhooks }, { projects }] = await Promise.all([api.get(`/webhooks?entity=${encodeURIComponent(entity)}`),
    api.get('/projects').catch(() => ({ projects: [] }))]);
  if (!isCurrent()) return;
  if (webhooks.length === 0) {
    replace(view, automationsHeader(context, entity, 'new'), state('An automation calls a webhook: add one first.', 'warning'),
      h('a', { href: href(automationsPath(entity, 'webhooks')) }, 'Add a webhook'));
    return;
  }
  const message = h('div', { 'aria-live': 'polite' });
  const field = (id, label, control) => h('div', { class: 'field' }, h('label', { for: id }, label), control);
  const name = h('input', { id: 'automation-name', required: true, autocomplete: 'off' });
  const description = h('input', { id: 'automation-description', autocomplete: 'off', size: 40 });
  const scope = h('select', { id: 'automation-scope' }, SCOPES.map(([value, label]) => h('option', { value }, label)));
  const project = h('input', { id: 'automation-project', list: 'automation-projects', autocomplete: 'off' });
  const projectNames = projects.filter((candidate) => candidate.entity === entity).map((candidate) => candidate.project);
  const collection = h('input', { id: 'automation-collection', autocomplete: 'off' });
  const event = h('select', { id: 'automation-event' }, EVENTS.map(([value, label]) => h('option', { value }, `${value}: ${label}`)));
  const filterLabel = h('label', { for: 'automation-filter' }, 'Alias filter (regular expression)');
  const filter = h('input', { id: 'automation-filter', class: 'mono', autocomplete: 'off', placeholder: '^latest$' });
  const webhook = h('select', { id: 'automation-webhook' }, webhooks.map((candidate) => h('option', { value: candidate.id }, candidate.name)));
  const editor = payloadEditor({ id: 'automation-template', label: 'Payload template', initial: DEFAULT_TEMPLATE });
  const projectFields = [field('automation-project', `Project (of ${entity})`, project), field('automation-collection', 'Collection', collection)];
  const sync = () => {
    projectFields.forEach((element) => { element.hidden = scope.value === 'ENTITY'; });
    project.required = scope.value !== 'ENTITY';
    collection.required = scope.value === 'ARTIFACT_COLLECTION';
    filterLabel.textContent = event.value === 'ADD_ARTIFACT_TAG' ? 'Tag filter (regular expression)' : 'Alias filter (regular expression)';
    filter.required = event.value === 'ADD_ARTIFACT_ALIAS';
    editor.setWebhook(webhooks.find((candidate) => candidate.id === webhook.value));
  };
  [scope, event, webhook].forEach((control) => control.addEventListener('change', sync));
  sync();

  const form = h('form', { class: 'automation-form', onsubmit: async (submitted) => {
    submitted.preventDefault();
    try {
      const filtered = event.value === 'ADD_ARTIFACT_TAG' ? 'tag' : 'alias';
      const created = await api.post('/automations', {
        name: name.value.trim(), description: description.value.trim() || null,
        scope: scope.value === 'ENTITY' ? { type: 'ENTITY', entity }
          : { type: scope.value, project: `${entity}/${project.value.trim()}`, collection: collection.value.trim() || null },
        event: { type: event.value, filter: filter.value ? { $or: [{ $and: [{ [filtered]: { $regex: filter.value } }] }] } : null },
        action: { type: 'WEBHOOK', webhook_id: webhook.value, payload_template: editor.parsed() },
      });
      navigate(automationsPath(entity, 'automation', created.id));
    } catch (error) {
      replace(message, state(`The automation could not be created: ${error.message}`, 'error'));
    }
  } },
  h('div', { class: 'form-row' }, field('automation-name', 'Automation name', name), field('automation-description', 'Description', description)),
  h('fieldset', {}, h('legend', {}, 'When'),
    h('div', { class: 'form-row' }, field('automation-scope', 'Scope', scope), projectFields,
      h('datalist', { id: 'automation-projects' }, projectNames.map((value) => h('option', { value })))),
    h('div', { class: 'form-row' }, field('automation-event', 'Event', event), h('div', { class: 'field' }, filterLabel, filter))),
  h('fieldset', {}, h('legend', {}, 'Then'),
    h('div', { class: 'form-row' }, field('automation-webhook', 'Webhook', webhook)), editor.element),
  h('button', { type: 'submit' }, 'Create automation'),
  message);
  replace(view, automationsHeader(context, entity, 'new'), h('section', { class: 'card', 'aria-label': 'New automation' },
    h('h2', {}, 'New automation'), form));
  name.focus();
}

export async function renderAutomation(view, [entity, id], params, isCurrent) {
  replace(view, h('h1', {}, 'Automations'), state('Loading the automation…'));
  const context = await entityContext(entity);
  if (!context.entry) {
    if (isCurrent()) replace(view, notYours(entity, context.entities));
    return;
  }
  const automation = await api.get(`/automations/${encodeURIComponent(id)}`);
  const webhook = await api.get(`/webhooks/${automation.action.webhook_id}`).catch(() => null);
  if (!isCurrent()) return;
  const message = h('div', { 'aria-live': 'polite' });
  const rerender = () => renderAutomation(view, [entity, id], params, isCurrent);
  const toggle = h('button', { type: 'button', class: 'secondary', onclick: async () => {
    try {
      await api.put(`/automations/${automation.id}`, { enabled: !automation.enabled });
      await rerender();
    } catch (error) {
      replace(message, state(error.message, 'error'));
    }
  } }, automation.enabled ? 'Disable' : 'Enable');
  const remove = h('button', { type: 'button', class: 'danger', onclick: async () => {
    if (!await confirmAction(`Delete the automation ${automation.name}?`, 'Its delivery history goes with it.', 'Delete')) return;
    try {
      await api.delete(`/automations/${automation.id}?confirm=true`);
      navigate(automationsPath(entity));
    } catch (error) {
      replace(message, state(`The automation could not be deleted: ${error.message}`, 'error'));
    }
  } }, 'Delete…');
  replace(view, automationsHeader(context, entity, 'automation'),
    h('section', { class: 'card', 'aria-label': `Automation ${automation.name}` },
      h('h2', {}, automation.name),
      automation.description ? h('p', {}, automation.description) : null,
      h('dl', { class: 'facts' },
        h('dt', {}, 'Scope'), h('dd', {}, describeScope(automation.scope)),
        h('dt', {}, 'Event'), h('dd', {}, automation.event.type),
        h('dt', {}, 'Filter'), h('dd', { class: 'mono' }, describeFilter(automation.event.filter) || 'none'),
        h('dt', {}, 'Webhook'), h('dd', {}, webhook
          ? h('a', { href: href(automationsPath(entity, 'webhooks', webhook.id)) }, webhook.name) : automation.action.webhook_id),
        h('dt', {}, 'State'), h('dd', {}, automation.enabled ? 'Enabled' : 'Disabled'),
        h('dt', {}, 'Created'), h('dd', {}, `${formatTime(automation.created_at)}${automation.created_by ? ` by ${automation.created_by}` : ''}`),
        h('dt', {}, 'Payload template'), h('dd', {}, h('pre', { class: 'mono' }, JSON.stringify(automation.action.payload_template, null, 2)))),
      context.entry.manage && h('div', { class: 'inline-form' }, toggle, remove)),
    message,
    deliveryHistory(automation, context.entry.manage, isCurrent));
}

export function describeScope(scope) {
  if (scope.type === 'ENTITY') return `Every project of ${scope.entity}`;
  return scope.collection ? `${scope.project} / ${scope.collection}` : scope.project;
}

/** A saved filter as text: the regular expressions it holds (the console writes those), else its JSON. */
export function describeFilter(filter) {
  if (!filter || (typeof filter === 'object' && Object.keys(filter).length === 0)) return '';
  const regexes = [];
  const walk = (node, field) => {
    if (Array.isArray(node)) node.forEach((item) => walk(item, field));
    else if (node && typeof node === 'object') {
      Object.entries(node).forEach(([key, value]) => {
        if (key === '$regex') regexes.push(`${field} ~ /${value}/`);
        else walk(value, key.startsWith('$') ? field : key);
      });
    }
  };
  walk(filter, '');
  return regexes.length ? regexes.join(', ') : JSON.stringify(filter);
}
