// The signed-in user's API keys: create one (its secret is shown once, here, with a copy button), list them by
// name and hint, revoke one. The new key lives only in this page's memory: a reload or another view drops it.
import { h, replace, state, formatTime } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { whoAmI } from '../shared/identity.js';
import { confirmAction } from '../shared/confirm.js';

export async function renderKeys(view, captured, params, isCurrent) {
  replace(view, h('h1', {}, 'API keys'), state('Loading your keys…'));
  const me = await whoAmI();
  if (!isCurrent()) return;
  if (!me.has_api_keys) {
    replace(view, h('h1', {}, 'API keys'), state('You are signed in with the bootstrap administrator key, which has no user and '
      + 'no keys of its own. Create a user for yourself and sign in with its key to manage keys here.', 'warning'));
    return;
  }
  const created = h('div', { 'aria-live': 'polite' });
  const list = h('div', {}, state('Loading your keys…'));
  const message = h('div', { 'aria-live': 'polite' });
  const nameInput = h('input', { id: 'key-name', maxlength: 128, placeholder: 'laptop', autocomplete: 'off' });
  const keysPath = `/admin/users/${encodeURIComponent(me.name)}/api-keys`;

  async function load() {
    try {
      const keys = await api.get(keysPath);
      if (!isCurrent()) return;
      replace(list, keys.length === 0 ? state('You have no API keys.') : keyTable(keys));
    } catch (error) {
      replace(list, state(`Your keys could not be loaded: ${error.message}`, 'error'));
    }
  }

  function keyTable(keys) {
    return h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, ['Name', 'Key', 'Created', 'Status', ''].map((label) => h('th', { scope: 'col' }, label)))),
      h('tbody', {}, keys.slice().reverse().map((key) => h('tr', {},
        h('td', {}, key.name, key.id === me.api_key_id ? h('span', { class: 'alias' }, 'this session') : null),
        h('td', { class: 'mono' }, key.hint),
        h('td', {}, formatTime(key.created_at)),
        h('td', {}, key.revoked_at ? `Revoked ${formatTime(key.revoked_at)}` : 'Active'),
        h('td', {}, key.revoked_at ? null : h('button', { type: 'button', class: 'secondary', 'aria-label': `Revoke ${key.name}`,
          onclick: () => revoke(key) }, 'Revoke'))))));
  }

  async function revoke(key) {
    const own = key.id === me.api_key_id;
    const sure = await confirmAction(`Revoke the key “${key.name}”?`, own
      ? 'This is the key you are signed in with: revoking it signs you out. Clients using it stop working at once.'
      : 'Clients using this key stop working at once. This cannot be undone.', 'Revoke');
    if (!sure) return;
    try {
      await api.delete(`/admin/api-keys/${encodeURIComponent(key.id)}`);
      replace(message, state(`The key “${key.name}” is revoked.`));
      await load();
    } catch (error) {
      replace(message, state(`The key could not be revoked: ${error.message}`, 'error'));
    }
  }

  const form = h('form', { class: 'inline-form', onsubmit: async (event) => {
    event.preventDefault();
    replace(created);
    try {
      const key = await api.post(keysPath, { name: nameInput.value.trim() || 'default' });
      nameInput.value = '';
      replace(created, newKeyPanel(key));
      replace(message);
      await load();
    } catch (error) {
      replace(message, state(`The key could not be created: ${error.message}`, 'error'));
    }
  } },
  h('label', { for: 'key-name' }, 'Key name'), nameInput, h('button', { type: 'submit' }, 'Create key'));

  replace(view, h('h1', {}, 'API keys'),
    h('p', {}, `Keys of ${me.name}. A key is shown once, when it is created; afterwards only its last characters are.`),
    h('section', { class: 'card', 'aria-label': 'New key' }, h('h2', {}, 'Create a key'), form, created),
    message,
    h('section', { class: 'card', 'aria-label': 'Your keys' }, h('h2', {}, 'Your keys'), list));
  await load();
}

function newKeyPanel(key) {
  const value = h('input', { id: 'new-key', class: 'mono secret-once', readonly: true, value: key.key, size: 48,
    onfocus: (event) => event.target.select() });
  const copied = h('span', { role: 'status' });
  return h('div', { class: 'new-key' },
    h('label', { for: 'new-key' }, `API key “${key.name}”`), value,
    h('button', { type: 'button', onclick: async () => {
      try {
        await navigator.clipboard.writeText(key.key);
        copied.textContent = 'Copied to the clipboard.';
      } catch (error) {
        value.focus();
        copied.textContent = 'The browser refused the clipboard: the key is selected, copy it with Ctrl+C.';
      }
    } }, 'Copy key'), copied,
    state('Copy it now: it is not shown again.', 'warning'));
}
