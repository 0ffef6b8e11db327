// The admin page talks to the service's own REST API with the key the person typed; the key stays in this
// tab's sessionStorage. Everything from the server is written with textContent, never as HTML.
'use strict';

const state = { key: sessionStorage.getItem('apiKey') || '', entity: sessionStorage.getItem('entity') || '', webhooks: [],
  automation: null, testing: null };

const $ = (id) => document.getElementById(id);

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: { 'Authorization': 'Bearer ' + state.key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (notJson) {
    data = { detail: text };
  }
  if (!response.ok) {
    const detail = data && data.detail;
    throw new Error(Array.isArray(detail) ? detail.map((issue) => issue.loc.join('.') + ': ' + issue.msg).join('; ')
      : detail || response.status + ' ' + response.statusText);
  }
  return data;
}

function say(message, isError) {
  $('status').textContent = message;
  $('status').className = isError ? 'error' : '';
}

function guarded(action) {
  return async (event) => {
    if (event) event.preventDefault();
    try {
      await action(event);
    } catch (error) {
      say(error.message, true);
    }
  };
}

function row(cells, actions) {
  const tr = document.createElement('tr');
  for (const cell of cells) {
    const td = document.createElement('td');
    if (cell instanceof Node) td.appendChild(cell); else td.textContent = cell == null ? '' : String(cell);
    tr.appendChild(td);
  }
  const td = document.createElement('td');
  for (const [label, handler] of actions || []) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = label;
    button.addEventListener('click', guarded(handler));
    td.appendChild(button);
  }
  tr.appendChild(td);
  return tr;
}

function fill(tbodyId, rows) {
  $(tbodyId).replaceChildren(...rows);
}

async function loadSecrets() {
  const secrets = (await api('GET', '/secrets?entity=' + encodeURIComponent(state.entity))).data;
  fill('secret-rows', secrets.map((secret) => row([secret.name, secret.updated_at], [
    ['Delete', async () => {
      if (!confirm('Delete secret ' + secret.name + '? Webhooks using it stop working.')) return;
      await api('DELETE', '/secrets/' + encodeURIComponent(state.entity) + '/' + encodeURIComponent(secret.name));
      await loadSecrets();
    }]])));
}

async function loadWebhooks() {
  state.webhooks = (await api('GET', '/webhooks?entity=' + encodeURIComponent(state.entity))).data;
  fill('webhook-rows', state.webhooks.map((hook) => row(
    [hook.name, hook.url, hook.access_token_secret, hook.secret, hook.enabled ? 'enabled' : 'disabled: ' + hook.disabled_reason],
    [
      ['Test', () => openTest(hook)],
      [hook.enabled ? 'Disable' : 'Enable', async () => {
        await api('PUT', '/webhooks/' + hook.id, { enabled: !hook.enabled });
        await loadWebhooks();
      }],
      ['Delete', async () => {
        if (!confirm('Delete webhook ' + hook.name + '?')) return;
        await api('DELETE', '/webhooks/' + hook.id);
        await loadWebhooks();
      }],
    ])));
  $('automation-webhook').replaceChildren(...state.webhooks.map((hook) => {
    const option = document.createElement('option');
    option.value = hook.id;
    option.textContent = hook.name;
    return option;
  }));
}

function openTest(hook) {
  state.testing = hook;
  $('test-name').textContent = hook.name;
  $('test-result').textContent = '';
  $('test-panel').hidden = false;
}

async function sendTest() {
  const payload = JSON.parse($('test-payload').value);
  $('test-result').textContent = 'Sending…';
  const result = await api('POST', '/webhooks/' + state.testing.id + '/test', { payload });
  $('test-result').textContent = result.error
    ? 'Error: ' + result.error
    : 'HTTP ' + result.status_code + ' in ' + result.duration_ms + ' ms\n'
      + Object.entries(result.headers).map(([name, value]) => name + ': ' + value).join('\n') + '\n\n' + (result.body || '');
}

function describeScope(scope) {
  if (scope.type === 'ENTITY') return 'team ' + scope.entity;
  return scope.project + (scope.collection ? ' / ' + scope.collection : '');
}

async function loadAutomations() {
  const automations = (await api('GET', '/automations?entity=' + encodeURIComponent(state.entity))).data;
  const webhookName = (id) => (state.webhooks.find((hook) => hook.id === id) || { name: id }).name;
  fill('automation-rows', automations.map((automation) => row(
    [automation.name, describeScope(automation.scope), automation.event.type, webhookName(automation.action.webhook_id),
      automation.enabled ? 'yes' : 'no'],
    [
      ['History', () => openHistory(automation)],
      [automation.enabled ? 'Disable' : 'Enable', async () => {
        await api('PUT', '/automations/' + automation.id, { enabled: !automation.enabled });
        await loadAutomations();
      }],
      ['Delete', async () => {
        if (!confirm('Delete automation ' + automation.name + ' and its delivery history?')) return;
        await api('DELETE', '/automations/' + automation.id + '?confirm=true');
        await loadAutomations();
      }],
    ])));
}

async function createAutomation() {
  const scopeType = $('automation-scope-type').value;
  const scope = scopeType === 'ENTITY' ? { type: 'ENTITY', entity: state.entity }
    : { type: scopeType, project: state.entity + '/' + $('automation-project').value, collection: $('automation-collection').value || null };
  const eventType = $('automation-event').value;
  const regex = $('automation-regex').value;
  const field = eventType === 'ADD_ARTIFACT_TAG' ? 'tag' : 'alias';
  const filter = regex ? { $or: [{ $and: [{ [field]: { $regex: regex } }] }] } : null;
  await api('POST', '/automations', {
    name: $('automation-name').value, scope, event: { type: eventType, filter },
    action: { type: 'WEBHOOK', webhook_id: $('automation-webhook').value, payload_template: $('automation-template').value },
  });
  say('Automation created');
  await loadAutomations();
}

async function openHistory(automation) {
  state.automation = automation;
  $('history-name').textContent = '— ' + automation.name;
  $('history-refresh').hidden = false;
  $('history-redeliver-failed').hidden = false;
  await loadHistory();
}

async function loadHistory() {
  if (!state.automation) return;
  const deliveries = (await api('GET', '/automations/' + state.automation.id + '/executions')).data;
  fill('delivery-rows', deliveries.map((delivery) => {
    const status = document.createElement('span');
    status.textContent = delivery.status;
    status.className = 'status-' + delivery.status;
    const last = delivery.attempts[delivery.attempts.length - 1];
    const answer = last ? (last.status_code ? 'HTTP ' + last.status_code : last.error) : '';
    const details = document.createElement('details');
    const summary = document.createElement('summary');
    summary.textContent = answer || '—';
    const pre = document.createElement('pre');
    pre.textContent = 'Payload: ' + JSON.stringify(delivery.payload, null, 2) + '\n\n' + delivery.attempts.map((attempt) =>
      '#' + attempt.attempt_number + ' ' + attempt.trigger + ' ' + attempt.started_at + ' ' + attempt.duration_ms + ' ms '
      + (attempt.status_code || '') + ' ' + (attempt.error || '') + '\n' + (attempt.response_body || '')).join('\n');
    details.append(summary, pre);
    return row([delivery.created_at, delivery.event_type + ' ' + delivery.event_id, status, delivery.attempts.length, details],
      [['Redeliver', async () => {
        await api('POST', '/automations/' + state.automation.id + '/executions/' + delivery.id + '/redeliver');
        say('Redelivery queued');
        setTimeout(guarded(loadHistory), 1000);
      }]]);
  }));
}

async function open() {
  state.key = $('api-key').value;
  state.entity = $('entity').value;
  sessionStorage.setItem('apiKey', state.key);
  sessionStorage.setItem('entity', state.entity);
  await loadSecrets();
  await loadWebhooks();
  await loadAutomations();
  $('console').hidden = false;
  say('Signed in to ' + state.entity);
}

$('login').addEventListener('submit', guarded(open));
$('secret-form').addEventListener('submit', guarded(async () => {
  await api('PUT', '/secrets/' + encodeURIComponent(state.entity) + '/' + encodeURIComponent($('secret-name').value),
    { value: $('secret-value').value });
  $('secret-value').value = '';
  say('Secret saved');
  await loadSecrets();
}));
$('webhook-form').addEventListener('submit', guarded(async () => {
  await api('POST', '/webhooks', { entity: state.entity, name: $('webhook-name').value, url: $('webhook-url').value,
    access_token_secret: $('webhook-token').value || null, secret: $('webhook-secret').value || null });
  say('Webhook added');
  await loadWebhooks();
}));
$('test-send').addEventListener('click', guarded(sendTest));
$('automation-form').addEventListener('submit', guarded(createAutomation));
$('history-refresh').addEventListener('click', guarded(loadHistory));
$('history-redeliver-failed').addEventListener('click', guarded(async () => {
  const result = await api('POST', '/automations/' + state.automation.id + '/executions/redeliver-failed');
  say(result.queued + ' deliveries queued again');
  setTimeout(guarded(loadHistory), 1000);
}));

$('api-key').value = state.key;
$('entity').value = state.entity;
