// A project's LLM prices (#/p/<entity>/<project>/prices): the prices it set itself (POST /cost/create, removed with
// /cost/purge) and the platform's default list prices (GET /cost/defaults), which cost every model the project has
// no price for. Prices are shown and typed in USD per million tokens; the API stores them per token.
import { h, replace, state, formatTime } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { confirmAction } from '../shared/confirm.js';
import { loadPrices, perMillion } from './prices.js';

const day = (iso) => (iso ? iso.slice(0, 10) : '');
const usd = (perToken) => `$${perMillion(perToken)}`;

export async function renderPrices(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const message = h('div', { 'aria-live': 'polite' });
  const ownBox = h('div', { class: 'table-wrap' }, state('Loading the prices…'));
  const defaultsBox = h('div', { class: 'table-wrap' });
  const defaultsIntro = h('p', { class: 'source' });
  const knownModels = h('datalist', { id: 'price-models' });
  let prices;

  async function load() {
    try {
      prices = await loadPrices(projectId);
    } catch (error) {
      if (isCurrent()) replace(ownBox, state(`The prices could not be loaded: ${error.message}`, 'error'));
      return;
    }
    if (!isCurrent()) return;
    const ownModels = new Set(prices.own.map((price) => price.llm_id));
    replace(ownBox, prices.own.length === 0
      ? state('This project has no price of its own: its usage is costed at the default prices below.')
      : ownTable(prices.own));
    replace(knownModels, prices.defaults.results.map((price) => h('option', { value: price.llm_id })));
    replace(defaultsIntro, prices.defaults.as_of
      ? `List prices as of ${prices.defaults.as_of}. Source: ${prices.defaults.source}`
      : 'The default prices could not be loaded.');
    replace(defaultsBox, defaultsTable(prices.defaults.results, ownModels));
  }

  function ownTable(own) {
    return h('table', { class: 'grid prices own-prices' },
      h('thead', {}, h('tr', {}, ['Model', 'Provider', 'Prompt / 1M tokens', 'Completion / 1M tokens', 'Effective from', 'Set by', '']
        .map((label, index) => h('th', { scope: 'col', class: index === 2 || index === 3 ? 'num' : null }, label)))),
      h('tbody', {}, own.map((price) => h('tr', {},
        h('td', { class: 'mono' }, price.llm_id), h('td', {}, price.provider_id),
        h('td', { class: 'num' }, usd(price.prompt_token_cost)), h('td', { class: 'num' }, usd(price.completion_token_cost)),
        h('td', {}, formatTime(price.effective_date)), h('td', {}, price.created_by),
        h('td', {}, h('button', { type: 'button', class: 'secondary', 'aria-label': `Remove the price of ${price.llm_id}`,
          onclick: () => remove(price) }, 'Remove'))))));
  }

  function defaultsTable(defaults, ownModels) {
    return h('table', { class: 'grid prices default-prices' },
      h('thead', {}, h('tr', {}, ['Model', 'Provider', 'Prompt / 1M tokens', 'Completion / 1M tokens', 'Effective from', '']
        .map((label, index) => h('th', { scope: 'col', class: index === 2 || index === 3 ? 'num' : null }, label)))),
      h('tbody', {}, defaults.map((price) => h('tr', {},
        h('td', { class: 'mono' }, price.llm_id), h('td', {}, price.provider_id),
        h('td', { class: 'num' }, usd(price.prompt_token_cost)), h('td', { class: 'num' }, usd(price.completion_token_cost)),
        h('td', {}, day(price.effective_date)),
        h('td', {}, ownModels.has(price.llm_id) ? h('span', { class: 'alias' }, 'this project sets its own') : null)))));
  }

  async function remove(price) {
    const sure = await confirmAction(`Remove the price of ${price.llm_id}?`,
      'Its usage is then costed at the project\'s other prices for it, or the default price.', 'Remove');
    if (!sure) return;
    try {
      await api.post('/cost/purge', { project_id: projectId,
        query: { $expr: { $eq: [{ $getField: 'id' }, { $literal: price.id }] } } });
      replace(message, state(`The price of ${price.llm_id} is removed.`));
      await load();
    } catch (error) {
      replace(message, state(`The price could not be removed: ${error.message}`, 'error'));
    }
  }

  const model = h('input', { id: 'price-model', list: 'price-models', required: true, placeholder: 'gpt-4o', autocomplete: 'off' });
  const prompt = h('input', { id: 'price-prompt', type: 'number', min: 0, step: 'any', required: true, placeholder: '2.5' });
  const completion = h('input', { id: 'price-completion', type: 'number', min: 0, step: 'any', required: true, placeholder: '10' });
  const effective = h('input', { id: 'price-effective', type: 'date' });
  const provider = h('input', { id: 'price-provider', placeholder: 'default', autocomplete: 'off' });
  const field = (id, label, input) => h('div', { class: 'field' }, h('label', { for: id }, label), input);
  const form = h('form', { class: 'form-row', onsubmit: async (event) => {
    event.preventDefault();
    const price = { prompt_token_cost: Number(prompt.value) / 1e6, completion_token_cost: Number(completion.value) / 1e6 };
    if (effective.value) price.effective_date = `${effective.value}T00:00:00Z`;
    if (provider.value.trim()) price.provider_id = provider.value.trim();
    try {
      await api.post('/cost/create', { project_id: projectId, costs: { [model.value.trim()]: price } });
      replace(message, state(`The price of ${model.value.trim()} is set.`));
      form.reset();
      await load();
    } catch (error) {
      replace(message, state(`The price could not be set: ${error.message}`, 'error'));
    }
  } },
  field('price-model', 'Model (LLM id as in usage)', model), field('price-prompt', 'Prompt, USD / 1M tokens', prompt),
  field('price-completion', 'Completion, USD / 1M tokens', completion), field('price-effective', 'Effective from (UTC)', effective),
  field('price-provider', 'Provider', provider), knownModels,
  h('div', { class: 'field actions' }, h('button', { type: 'submit' }, 'Set price')));

  replace(view, h('h1', {}, 'Prices'),
    h('p', {}, 'Costs of calls and of the Usage page price each model\'s tokens at this project\'s price for it, '
      + 'else at the default price. A price applies from its effective date; a later one replaces it from then on.'),
    h('section', { class: 'card', 'aria-labelledby': 'set-price' }, h('h2', { id: 'set-price' }, 'Set a price'), form, message),
    h('section', { class: 'card', 'aria-labelledby': 'own-prices' }, h('h2', { id: 'own-prices' }, 'This project\'s prices'), ownBox),
    h('section', { class: 'card', 'aria-labelledby': 'default-prices' }, h('h2', { id: 'default-prices' }, 'Default prices'),
      defaultsIntro, defaultsBox));
  await load();
}
