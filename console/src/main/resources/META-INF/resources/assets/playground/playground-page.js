// The playground (#/p/<entity>/<project>/playground?model=&compare=&temperature=&top_p=&max_tokens=&seed=&stop=):
// chat with a model of /v1/models (base models, aliases and trained checkpoints), optionally beside a second one
// on the same prompts. Each answer streams through the tracing-service's /completions/create_stream, which
// records the exchange as a traced call in this project; every answer links to its trace. The settings live in
// the URL; the conversation in this tab's session storage, so a reload keeps both.
import { h, replace, state, formatNumber } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { href, projectPath } from '../shared/router.js';

const SETTINGS = [
  { name: 'temperature', label: 'Temperature', attributes: { type: 'number', min: 0, max: 2, step: 0.1 } },
  { name: 'top_p', label: 'Top p', attributes: { type: 'number', min: 0, max: 1, step: 0.05 } },
  { name: 'max_tokens', label: 'Max tokens', attributes: { type: 'number', min: 1, step: 1 } },
  { name: 'seed', label: 'Seed', attributes: { type: 'number', step: 1 } },
  { name: 'stop', label: 'Stop', attributes: { type: 'text', placeholder: 'sequences, separated by |' } },
];

function conversationKey(projectId, model) {
  return `console.playground.${projectId}.${model}`;
}

function loadConversation(projectId, model) {
  try {
    return JSON.parse(sessionStorage.getItem(conversationKey(projectId, model)) ?? '[]');
  } catch (unreadable) {
    return [];
  }
}

function saveConversation(projectId, model, turns) {
  sessionStorage.setItem(conversationKey(projectId, model), JSON.stringify(turns));
}

export async function renderPlayground(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const path = projectPath(entity, project, 'playground');
  replace(view, h('h1', {}, 'Playground'), state('Loading the models…'));
  const models = (await api.get('/v1/models')).data.map((card) => card.id);
  if (!isCurrent()) return;
  if (models.length === 0) {
    replace(view, h('h1', {}, 'Playground'), state('No model is served to this key: the gateway lists none.', 'error'));
    return;
  }
  const wanted = params.get('model');
  const chosen = {
    model: models.includes(wanted) ? wanted : wanted || models[0],
    compare: params.get('compare') || '',
  };
  const settings = Object.fromEntries(SETTINGS.map(({ name }) => [name, params.get(name) ?? '']));

  const keepInUrl = () => history.replaceState(null, '', href(path, { ...chosen, ...settings }));
  const modelOptions = (selected, withNone) => [
    withNone && h('option', { value: '', selected: selected === '' }, 'No second model'),
    ...(models.includes(selected) || selected === '' ? [] : [selected]).concat(models)
      .map((id) => h('option', { value: id, selected: id === selected }, id)),
  ];
  const panesBox = h('div', { class: 'panes' });
  const modelSelect = h('select', { id: 'playground-model', onchange: (event) => { chosen.model = event.target.value; keepInUrl(); renderPanes(); } },
    modelOptions(chosen.model, false));
  const compareSelect = h('select', { id: 'playground-compare', onchange: (event) => { chosen.compare = event.target.value; keepInUrl(); renderPanes(); } },
    modelOptions(chosen.compare, true));
  const settingFields = SETTINGS.map(({ name, label, attributes }) => h('div', { class: 'field' },
    h('label', { for: `playground-${name}` }, label),
    h('input', { id: `playground-${name}`, name, value: settings[name], ...attributes,
      onchange: (event) => { settings[name] = event.target.value.trim(); keepInUrl(); } })));
  const message = h('textarea', { id: 'playground-message', rows: 3, placeholder: 'Ctrl+Enter sends',
    onkeydown: (event) => { if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) { event.preventDefault(); form.requestSubmit(); } } });
  const send = h('button', { type: 'submit' }, 'Send');
  const form = h('form', { class: 'card prompt', onsubmit: (event) => { event.preventDefault(); sendToAll(); } },
    h('div', { class: 'field' }, h('label', { for: 'playground-message' }, 'Message'), message),
    h('div', { class: 'field actions' }, send,
      h('button', { type: 'button', class: 'secondary', onclick: () => panes.forEach((pane) => pane.clear()) }, 'Clear conversation')));

  replace(view, h('h1', {}, 'Playground'),
    h('form', { class: 'filters', onsubmit: (event) => event.preventDefault() },
      h('div', { class: 'field' }, h('label', { for: 'playground-model' }, 'Model'), modelSelect),
      h('div', { class: 'field' }, h('label', { for: 'playground-compare' }, 'Compare with'), compareSelect),
      settingFields),
    panesBox, form);

  let panes = [];
  function renderPanes() {
    panes = [chosen.model, chosen.compare].filter(Boolean).map((model) => chatPane(model, projectId, entity, project));
    panesBox.classList.toggle('compare', panes.length > 1);
    replace(panesBox, panes.map((pane) => pane.element));
  }
  async function sendToAll() {
    const text = message.value.trim();
    if (!text || send.disabled) return;
    message.value = '';
    send.disabled = true;
    try {
      await Promise.all(panes.map((pane) => pane.ask(text, requestSettings(settings))));
    } finally {
      send.disabled = false;
      message.focus();
    }
  }
  renderPanes();
}

/** The completion parameters set in the form, as the API takes them (blank ones left to the model's defaults). */
function requestSettings(settings) {
  const request = {};
  for (const name of ['temperature', 'top_p']) if (settings[name] !== '') request[name] = Number(settings[name]);
  for (const name of ['max_tokens', 'seed']) if (settings[name] !== '') request[name] = Math.trunc(Number(settings[name]));
  if (settings.stop) request.stop = settings.stop.split('|').filter(Boolean);
  return request;
}

/** One model's conversation: its turns, streamed answers and links to their traces. */
function chatPane(model, projectId, entity, project) {
  let turns = loadConversation(projectId, model);
  const list = h('ol', { class: 'chat', 'aria-live': 'polite' });
  const element = h('section', { class: 'card pane', 'aria-label': `Chat with ${model}` },
    h('h2', { class: 'mono' }, model), list);
  const traceLink = (turn) => turn.traceId && h('a', { href: href(projectPath(entity, project, 'traces', turn.traceId), { call: turn.callId }) },
    'View the trace');
  const show = () => replace(list, turns.length === 0 ? h('li', { class: 'state' }, 'No messages yet.')
    : turns.map((turn) => h('li', { class: `chat-${turn.role}` },
      h('div', { class: 'chat-role' }, turn.role === 'user' ? 'You' : model),
      h('div', { class: 'chat-text' }, turn.content),
      turn.error && h('p', { class: 'state state-error', role: 'alert' }, turn.error),
      turn.usage && h('div', { class: 'chat-meta' }, `${formatNumber(turn.usage.prompt_tokens)} prompt + `
        + `${formatNumber(turn.usage.completion_tokens)} completion tokens`, ' ', traceLink(turn)),
      !turn.usage && turn.traceId && h('div', { class: 'chat-meta' }, traceLink(turn)))));
  show();

  async function ask(text, settings) {
    turns.push({ role: 'user', content: text });
    const answer = { role: 'assistant', content: '', streaming: true };
    const messages = turns.filter((turn) => !turn.error).map(({ role, content }) => ({ role, content }));
    turns.push(answer);
    show();
    try {
      for await (const line of api.streamLines('/completions/create_stream', {
        project_id: projectId, inputs: { model, messages, ...settings }, track_llm_call: true })) {
        if (line._meta?.weave_call_id) answer.callId = line._meta.weave_call_id;
        if (line.error) answer.error = typeof line.error === 'string' ? line.error : line.error.message ?? JSON.stringify(line.error);
        const delta = line.choices?.[0]?.delta?.content;
        if (delta) answer.content += delta;
        if (line.usage) answer.usage = line.usage;
        show();
      }
      if (answer.callId) {
        const { call } = await api.post('/call/read', { project_id: projectId, id: answer.callId });
        answer.traceId = call?.trace_id;
      }
    } catch (error) {
      answer.error = error.message;
    }
    delete answer.streaming;
    if (!answer.content && !answer.error) answer.error = 'The model answered nothing.';
    saveConversation(projectId, model, turns);
    show();
  }

  function clear() {
    turns = [];
    saveConversation(projectId, model, turns);
    show();
  }

  return { element, ask, clear };
}
