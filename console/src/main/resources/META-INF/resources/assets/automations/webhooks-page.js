// An entity's webhooks: the list (enable, disable, delete), adding one with its access token and signing secret
// chosen from the entity's secrets, and a webhook's page whose test button shows what the receiver answered.
import { h, replace, state, formatTime, formatLatency } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { href, navigate } from '../shared/router.js';
import { confirmAction } from '../shared/confirm.js';
import { automationsHeader, automationsPath, entityContext, notYours } from './automations-nav.js';
import { payloadEditor } from './payload-editor.js';

export async function renderWebhooks(view, [entity], params, isCurrent) {
  replace(view, h('h1', {}, 'Automations'), state('Loading the webhooks…'));
  const context = await entityContext(entity);
  if (!isCurrent()) return;
  if (!context.entry) {
    replace(view, notYours(entity, context.entities));
    return;
  }
  const list = h('div', {}, state('Loading the webhooks…'));
  const message = h('div', { 'aria-live': 'polite' });

  async function load() {
    try {
      const { data } = await api.get(`/webhooks?entity=${encodeURIComponent(entity)}`);
      if (!isCurrent()) return;
      replace(list, data.length === 0 ? state(`${entity} has no webhooks yet.`) : h('table', { class: 'grid' },
        h('thead', {}, h('tr', {}, ['Name', 'URL', 'Access token', 'Signing secret', 'State', ''].map((label) => h('th', { scope: 'col' }, label)))),
        h('tbody', {}, data.map((webhook) => h('tr', {},
          h('td', {}, h('a', { href: href(automationsPath(entity, 'webhooks', webhook.id)) }, webhook.name)),
          h('td', { class: 'mono' }, webhook.url),
          h('td', { class: 'mono' }, webhook.access_token_secret ?? '—'),
          h('td', { class: 'mono' }, webhook.secret ?? '—'),
          h('td', {}, webhookState(webhook)),
          h('td', {}, h('a', { href: href(automationsPath(entity, 'webhooks', webhook.id)), 'aria-label': `Test ${webhook.name}` }, 'Test'),
            context.entry.manage && [' ', enableButton(webhook, message, load), ' ', deleteButton(webhook, message, load)]))))));
    } catch (error) {
      replace(list, state(`The webhooks could not be loaded: ${error.message}`, 'error'));
    }
  }

  replace(view, automationsHeader(context, entity, 'webhooks'),
    h('section', { class: 'card', 'aria-label': 'Webhooks' }, h('h2', {}, 'Webhooks'), list),
    context.entry.manage && await newWebhookForm(entity, message, load),
    message);
  await load();
}

async function newWebhookForm(entity, message, load) {
  const { data: secrets } = await api.get(`/secrets?entity=${encodeURIComponent(entity)}`);
  const secretSelect = (id) => h('select', { id }, h('option', { value: '' }, 'none'),
    secrets.map((secret) => h('option', { value: secret.name }, secret.name)));
  const name = h('input', { id: 'webhook-name', required: true, autocomplete: 'off' });
  const url = h('input', { id: 'webhook-url', type: 'url', required: true, placeholder: 'https://example.com/hook', size: 40 });
  const token = secretSelect('webhook-token');
  const signing = secretSelect('webhook-secret');
  const form = h('form', { class: 'inline-form', onsubmit: async (event) => {
    event.preventDefault();
    try {
      const created = await api.post('/webhooks', { entity, name: name.value.trim(), url: url.value.trim(),
        access_token_secret: token.value || null, secret: signing.value || null });
      replace(message, state(`The webhook ${created.name} was added.`));
      name.value = '';
      url.value = '';
      await load();
    } catch (error) {
      replace(message, state(`The webhook could not be added: ${error.message}`, 'error'));
    }
  } },
  h('div', { class: 'field' }, h('label', { for: 'webhook-name' }, 'Webhook name'), name),
  h('div', { class: 'field' }, h('label', { for: 'webhook-url' }, 'URL'), url),
  h('div', { class: 'field' }, h('label', { for: 'webhook-token' }, 'Access token secret'), token),
  h('div', { class: 'field' }, h('label', { for: 'webhook-secret' }, 'Signing secret'), signing),
  h('button', { type: 'submit' }, 'Add webhook'));
  return h('section', { class: 'card', 'aria-label': 'Add a webhook' }, h('h2', {}, 'Add a webhook'),
    secrets.length === 0 ? h('p', {}, 'Tip: save a secret first to sign the requests or send an access token (',
      h('a', { href: href(automationsPath(entity, 'secrets')) }, 'Secrets'), ').') : null,
    form);
}

function webhookState(webhook) {
  if (webhook.enabled) {
    return webhook.failing_since ? `Enabled, failing since ${formatTime(webhook.failing_since)}` : 'Enabled';
  }
  return `Disabled${webhook.disabled_reason ? `: ${webhook.disabled_reason}` : ''}`;
}

function enableButton(webhook, message, done) {
  return h('button', { type: 'button', class: 'secondary', 'aria-label': `${webhook.enabled ? 'Disable' : 'Enable'} ${webhook.name}`,
    onclick: async () => {
      try {
        await api.put(`/webhooks/${webhook.id}`, { enabled: !webhook.enabled });
        replace(message, state(`The webhook ${webhook.name} is ${webhook.enabled ? 'disabled' : 'enabled'}.`));
        await done();
      } catch (error) {
        replace(message, state(error.message, 'error'));
      }
    } }, webhook.enabled ? 'Disable' : 'Enable');
}

function deleteButton(webhook, message, done) {
  return h('button', { type: 'button', class: 'secondary', 'aria-label': `Delete ${webhook.name}`, onclick: async () => {
    if (!await confirmAction(`Delete the webhook ${webhook.name}?`, 'Automations that use it must be deleted first.', 'Delete')) return;
    try {
      await api.delete(`/webhooks/${webhook.id}`);
      replace(message, state(`The webhook ${webhook.name} was deleted.`));
      await done();
    } catch (error) {
      replace(message, state(`The webhook could not be deleted: ${error.message}`, 'error'));
    }
  } }, 'Delete');
}

export async function renderWebhook(view, [entity, id], params, isCurrent) {
  replace(view, h('h1', {}, 'Automations'), state('Loading the webhook…'));
  const context = await entityContext(entity);
  if (!context.entry) {
    if (isCurrent()) replace(view, notYours(entity, context.entities));
    return;
  }
  const webhook = await api.get(`/webhooks/${encodeURIComponent(id)}`);
  if (!isCurrent()) return;
  const message = h('div', { 'aria-live': 'polite' });
  const editor = payloadEditor({ id: 'test-payload', label: 'Test payload',
    initial: '{"event_type": "TEST", "text": "a test of ${entity_name} from the console"}' });
  editor.setWebhook(webhook);
  const answer = h('section', { class: 'card', 'aria-label': 'Receiver\'s answer', 'aria-live': 'polite' },
    h('h2', {}, 'Receiver\'s answer'), state('Send a test to see what the receiver answers.'));
  const send = h('button', { type: 'button', onclick: async () => {
    send.disabled = true;
    replace(answer, h('h2', {}, 'Receiver\'s answer'), state('Sending…'));
    try {
      const result = await api.post(`/webhooks/${webhook.id}/test`, { payload: editor.parsed() });
      replace(answer, h('h2', {}, 'Receiver\'s answer'), sendResult(result));
    } catch (error) {
      replace(answer, h('h2', {}, 'Receiver\'s answer'), state(`The test could not be sent: ${error.message}`, 'error'));
    } finally {
      send.disabled = false;
    }
  } }, 'Send test');

  replace(view, automationsHeader(context, entity, 'webhooks'),
    h('section', { class: 'card', 'aria-label': `Webhook ${webhook.name}` },
      h('h2', {}, `Webhook ${webhook.name}`),
      h('dl', { class: 'facts' },
        h('dt', {}, 'URL'), h('dd', { class: 'mono' }, webhook.url),
        h('dt', {}, 'Access token'), h('dd', { class: 'mono' }, webhook.access_token_secret ?? '—'),
        h('dt', {}, 'Signing secret'), h('dd', { class: 'mono' }, webhook.secret ?? '—'),
        h('dt', {}, 'State'), h('dd', {}, webhookState(webhook)),
        h('dt', {}, 'Created'), h('dd', {}, formatTime(webhook.created_at))),
      context.entry.manage && h('div', { class: 'inline-form' },
        enableButton(webhook, message, () => renderWebhook(view, [entity, id], params, isCurrent)),
        deleteButton(webhook, message, () => navigate(automationsPath(entity, 'webhooks'))))),
    context.entry.manage && h('section', { class: 'card', 'aria-label': 'Test' }, h('h2', {}, 'Test'),
      h('p', {}, 'Sends the payload now, signed and with the access token as deliveries are; nothing is stored.'),
      editor.element, send),
    answer,
    message);
}

/** What a receiver answered (a test or a delivery attempt): status and time, or the error; headers; body. */
export function sendResult(result) {
  const headline = result.error
    ? state(`${result.timed_out ? 'Timed out' : 'Failed'}: ${result.error}`, 'error')
    : h('p', { class: 'answer-status' }, h('strong', {}, `HTTP ${result.status_code}`), ` in ${formatLatency(result.duration_ms)}`);
  const headers = Object.entries(result.headers ?? {});
  return h('div', { class: 'send-result' }, headline,
    headers.length ? h('details', {}, h('summary', {}, `${headers.length} response headers`),
      h('dl', { class: 'facts mono' }, headers.map(([name, value]) => [h('dt', {}, name), h('dd', {}, value)]))) : null,
    result.body ? [h('h3', {}, 'Body'), h('pre', { class: 'answer-body' }, result.body)] : state('The answer had no body.'));
}
