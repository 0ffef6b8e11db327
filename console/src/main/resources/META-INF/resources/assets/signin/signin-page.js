// Sign in with an API key; the key is checked against the tracing service before it is kept.
import { h, replace, state } from '../shared/dom.js';
import { session } from '../shared/session.js';

export function renderSignIn(view, signedIn) {
  const message = h('div', { 'aria-live': 'polite' });
  const input = h('input', { id: 'api-key', type: 'password', autocomplete: 'off', required: true, spellcheck: 'false' });
  const form = h('form', { class: 'card signin', onsubmit: async (event) => {
    event.preventDefault();
    const key = input.value.trim();
    replace(message, state('Checking the key…'));
    const answer = await fetch('/projects', { headers: { Authorization: `Bearer ${key}` } }).catch(() => null);
    if (!answer || !answer.ok) {
      replace(message, state(answer && answer.status === 401 ? 'That API key was not accepted.'
        : `The platform could not check the key (${answer ? answer.status : 'no answer'}).`, 'error'));
      input.focus();
      return;
    }
    session.signIn(key);
    signedIn();
  } },
  h('h1', {}, 'Sign in'),
  h('p', {}, 'Your API key stays in this browser tab and is sent only to this console\'s APIs.'),
  h('label', { for: 'api-key' }, 'API key'), input,
  h('button', { type: 'submit' }, 'Sign in'),
  message);
  replace(view, form);
  input.focus();
}
