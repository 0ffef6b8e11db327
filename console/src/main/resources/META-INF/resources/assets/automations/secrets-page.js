// An entity's secrets: names and dates only (values are write-only), saving one (a new name creates, an existing
// one rotates) and deleting one.
import { h, replace, state, formatTime } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { confirmAction } from '../shared/confirm.js';
import { automationsHeader, entityContext, notYours } from './automations-nav.js';

export async function renderSecrets(view, [entity], params, isCurrent) {
  replace(view, h('h1', {}, 'Automations'), state('Loading the secrets…'));
  const context = await entityContext(entity);
  if (!isCurrent()) return;
  if (!context.entry) {
    replace(view, notYours(entity, context.entities));
    return;
  }
  const list = h('div', {}, state('Loading the secrets…'));
  const message = h('div', { 'aria-live': 'polite' });
  const secretPath = (name) => `/secrets/${encodeURIComponent(entity)}/${encodeURIComponent(name)}`;

  async function load() {
    try {
      const { data } = await api.get(`/secrets?entity=${encodeURIComponent(entity)}`);
      if (!isCurrent()) return;
      replace(list, data.length === 0 ? state(`${entity} has no secrets. Webhooks use them as access tokens and signing secrets.`)
        : h('table', { class: 'grid' },
          h('thead', {}, h('tr', {}, ['Name', 'Created', 'Updated', ''].map((label) => h('th', { scope: 'col' }, label)))),
          h('tbody', {}, data.map((secret) => h('tr', {},
            h('td', { class: 'mono' }, secret.name), h('td', {}, formatTime(secret.created_at)), h('td', {}, formatTime(secret.updated_at)),
            h('td', {}, context.entry.manage && h('button', { type: 'button', class: 'secondary', 'aria-label': `Delete secret ${secret.name}`,
              onclick: async () => {
                if (!await confirmAction(`Delete the secret ${secret.name}?`, 'Webhooks that use it can no longer be sent.', 'Delete')) return;
                try {
                  await api.delete(secretPath(secret.name));
                  replace(message, state(`The secret ${secret.name} was deleted.`));
                  await load();
                } catch (error) {
                  replace(message, state(`The secret could not be deleted: ${error.message}`, 'error'));
                }
              } }, 'Delete')))))));
    } catch (error) {
      replace(list, state(`The secrets could not be loaded: ${error.message}`, 'error'));
    }
  }

  const name = h('input', { id: 'secret-name', required: true, pattern: '[A-Za-z0-9_]{1,64}', autocomplete: 'off', class: 'mono' });
  const value = h('input', { id: 'secret-value', type: 'password', required: true, autocomplete: 'off' });
  const form = h('form', { class: 'inline-form', onsubmit: async (event) => {
    event.preventDefault();
    try {
      await api.put(secretPath(name.value), { value: value.value });
      replace(message, state(`The secret ${name.value} was saved.`));
      name.value = '';
      value.value = '';
      await load();
    } catch (error) {
      replace(message, state(`The secret could not be saved: ${error.message}`, 'error'));
    }
  } },
  h('label', { for: 'secret-name' }, 'Secret name'), name,
  h('label', { for: 'secret-value' }, 'Secret value'), value,
  h('button', { type: 'submit' }, 'Save secret'));

  replace(view, automationsHeader(context, entity, 'secrets'),
    h('section', { class: 'card', 'aria-label': 'Secrets' }, h('h2', {}, 'Secrets'),
      h('p', {}, 'Values are write-only: they are never shown again. Saving an existing name rotates it. Names: letters, digits, _.'),
      list),
    context.entry.manage && h('section', { class: 'card', 'aria-label': 'Save a secret' }, h('h2', {}, 'Save a secret'), form),
    message);
  await load();
}
