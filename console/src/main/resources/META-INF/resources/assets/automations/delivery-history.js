// An automation's deliveries, newest first, each with its attempts (trigger, time, answer) and the payload sent;
// redeliver one, or every failed one. While a delivery is still under way the list refreshes itself.
import { h, replace, state, formatTime, formatLatency } from '../shared/dom.js';
import { api } from '../shared/api.js';

const UNDER_WAY = new Set(['PENDING', 'SENDING', 'RETRY']);
const REFRESH_MS = 1500;

export function deliveryHistory(automation, manage, isCurrent) {
  const base = `/automations/${automation.id}/executions`;
  const list = h('div', {}, state('Loading the deliveries…'));
  const message = h('div', { 'aria-live': 'polite' });
  // Which deliveries' attempts are unfolded, so that a refresh keeps them so; only the latest load is shown.
  const unfolded = new Set();
  let timer = null;
  let loads = 0;

  async function load() {
    clearTimeout(timer);
    if (!isCurrent()) return;
    const thisLoad = ++loads;
    try {
      const { data } = await api.get(`${base}?limit=50`);
      if (!isCurrent() || thisLoad !== loads) return;
      replace(list, data.length === 0 ? state('No delivery yet: the automation has not fired.') : deliveryTable(data));
      if (data.some((delivery) => UNDER_WAY.has(delivery.status))) timer = setTimeout(load, REFRESH_MS);
    } catch (error) {
      if (thisLoad === loads) replace(list, state(`The deliveries could not be loaded: ${error.message}`, 'error'));
    }
  }

  async function act(request, done) {
    try {
      const answer = await request();
      replace(message, state(done(answer)));
      await load();
    } catch (error) {
      replace(message, state(error.message, 'error'));
    }
  }

  function deliveryTable(deliveries) {
    return h('table', { class: 'grid deliveries' },
      h('thead', {}, h('tr', {}, ['Created', 'Event', 'Status', 'Attempts', 'Last answer', ''].map((label) => h('th', { scope: 'col' }, label)))),
      h('tbody', {}, deliveries.map((delivery) => h('tr', {},
        h('td', {}, formatTime(delivery.created_at)),
        h('td', {}, delivery.event_type, h('div', { class: 'mono muted' }, delivery.event_id)),
        h('td', {}, h('span', { class: `status delivery-${delivery.status.toLowerCase()}` }, delivery.status),
          delivery.next_attempt_at && UNDER_WAY.has(delivery.status) ? h('div', { class: 'muted' }, `next ${formatTime(delivery.next_attempt_at)}`) : null),
        h('td', {}, attemptsDetails(delivery, unfolded)),
        h('td', {}, lastAnswer(delivery)),
        h('td', {}, manage && h('button', { type: 'button', class: 'secondary', disabled: UNDER_WAY.has(delivery.status),
          'aria-label': `Redeliver ${delivery.event_type} of ${formatTime(delivery.created_at)}`,
          onclick: () => act(() => api.post(`${base}/${delivery.id}/redeliver`), () => 'Redelivery queued.') }, 'Redeliver'))))));
  }

  const refresh = h('button', { type: 'button', class: 'secondary', onclick: load }, 'Refresh');
  const redeliverFailed = h('button', { type: 'button', class: 'secondary', onclick: () =>
    act(() => api.post(`${base}/redeliver-failed`), (answer) => `${answer.queued} failed ${answer.queued === 1 ? 'delivery' : 'deliveries'} queued again.`) },
  'Redeliver failed');
  load();
  return h('section', { class: 'card', 'aria-label': 'Delivery history' },
    h('div', { class: 'section-head' }, h('h2', {}, 'Delivery history'), refresh, manage && redeliverFailed),
    message, list);
}

function lastAnswer(delivery) {
  if (delivery.last_status_code) return `HTTP ${delivery.last_status_code}`;
  return delivery.last_error ?? '';
}

function attemptsDetails(delivery, unfolded) {
  return h('details', { open: unfolded.has(delivery.id),
    ontoggle: (event) => (event.target.open ? unfolded.add(delivery.id) : unfolded.delete(delivery.id)) }, h('summary', {}, `${delivery.attempts.length} ${delivery.attempts.length === 1 ? 'attempt' : 'attempts'}`),
    delivery.attempts.length === 0 ? state('Not attempted yet.') : h('table', { class: 'grid attempts' },
      h('thead', {}, h('tr', {}, ['#', 'Trigger', 'Started', 'Took', 'Answer', 'Response body'].map((label) => h('th', { scope: 'col' }, label)))),
      h('tbody', {}, delivery.attempts.map((attempt) => h('tr', {},
        h('td', { class: 'num' }, attempt.attempt_number),
        h('td', {}, attempt.trigger),
        h('td', {}, formatTime(attempt.started_at)),
        h('td', { class: 'num' }, formatLatency(attempt.duration_ms)),
        h('td', {}, attempt.status_code ? `HTTP ${attempt.status_code}` : '', attempt.error ? ` ${attempt.error}` : '',
          attempt.succeeded ? ' (succeeded)' : ' (failed)'),
        h('td', {}, attempt.response_body ? h('pre', { class: 'answer-body' }, attempt.response_body) : ''))))),
    h('h3', {}, 'Payload sent'), h('pre', { class: 'mono' }, JSON.stringify(delivery.payload, null, 2)));
}
