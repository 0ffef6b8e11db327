// What every automations view shares: the team picker (the user's own entity and teams, never typed), the tabs
// Automations / Webhooks / Secrets, and the paths of those views.
import { h, state } from '../shared/dom.js';
import { href, navigate } from '../shared/router.js';
import { automationEntities } from '../shared/identity.js';

const TABS = [['Automations', ''], ['Webhooks', 'webhooks'], ['Secrets', 'secrets']];

/** '/automations/<entity>[/<rest…>]', each segment encoded. */
export function automationsPath(entity, ...rest) {
  return ['', 'automations', entity, ...rest].filter((segment, index) => index < 3 || segment !== '')
    .map(encodeURIComponent).join('/');
}

/** The entities and the one in the URL; `entry` is null (with a message) when the user may not open it. */
export async function entityContext(entity) {
  const entities = await automationEntities();
  return { entities, entry: entities.find((candidate) => candidate.name === entity) ?? null };
}

/** The heading, team picker and tabs above an entity's view; `view` is its path segment (new, automation: the Automations tab). */
export function automationsHeader({ entities, entry }, entity, view) {
  const tab = TABS.some(([, path]) => path === view) ? view : '';
  const picker = h('select', { id: 'automation-entity', onchange: (event) => navigate(automationsPath(event.target.value, tab)) },
    entities.map((candidate) => h('option', { value: candidate.name, selected: candidate.name === entity },
      `${candidate.name} — ${candidate.kind}`)));
  return [
    h('div', { class: 'page-head' }, h('h1', {}, 'Automations'),
      h('div', { class: 'field' }, h('label', { for: 'automation-entity' }, 'Team'), picker)),
    h('nav', { class: 'subtabs', 'aria-label': 'Automation views' }, TABS.map(([label, path]) =>
      h('a', { href: href(automationsPath(entity, path)), class: path === tab ? 'tab active' : 'tab',
        'aria-current': path === tab ? 'page' : null }, label))),
    entry && !entry.manage ? state(`You are a member of ${entity}: you can read its automations; its admins change them.`, 'warning') : null,
  ];
}

/** The view for an entity the user cannot open (not a member, or no such team). */
export function notYours(entity, entities) {
  return [h('h1', {}, 'Automations'), state(`You are not a member of ${entity}.`, 'error'),
    entities.length ? h('p', {}, 'Open one of yours: ', entities.map((candidate, index) => [index ? ', ' : '',
      h('a', { href: href(automationsPath(candidate.name)) }, candidate.name)])) : null];
}
