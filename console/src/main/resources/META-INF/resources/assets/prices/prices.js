// The LLM prices that cost a project's usage: its own (POST /cost/query) and the platform's default list prices
// (GET /cost/defaults), chosen as the tracing-service chooses them for include_costs (docs/tracing-service.md#costs).
import { api } from '../shared/api.js';

export const PRICE_FIELDS = ['id', 'llm_id', 'provider_id', 'prompt_token_cost', 'completion_token_cost', 'effective_date',
  'created_by', 'created_at', 'pricing_level'];

/** { own: this project's prices, defaults: { as_of, source, results } }; the defaults are empty if they cannot be read. */
export async function loadPrices(projectId) {
  const [own, defaults] = await Promise.all([
    api.post('/cost/query', { project_id: projectId, fields: PRICE_FIELDS,
      sort_by: [{ field: 'llm_id', direction: 'asc' }, { field: 'effective_date', direction: 'desc' }] })
      .then((answer) => answer.results ?? []),
    api.get('/cost/defaults').catch(() => ({ results: [] })),
  ]);
  return { own, defaults };
}

/**
 * The price of a model at a time: among this project's and the default prices for it, those effective by then
 * first, then the project's over the defaults, then the latest effective date.
 */
export function priceAt({ own, defaults }, model, at) {
  const candidates = [...own, ...defaults.results].filter((price) => price.llm_id === model);
  const effective = (price) => (Date.parse(price.effective_date ?? 0) <= at ? 1 : 0);
  const projectLevel = (price) => (price.pricing_level === 'default' ? 0 : 1);
  return candidates.sort((a, b) => effective(b) - effective(a) || projectLevel(b) - projectLevel(a)
    || Date.parse(b.effective_date ?? 0) - Date.parse(a.effective_date ?? 0))[0];
}

/** A per-token price as USD per million tokens, without binary noise (2.5e-6 → 2.5). */
export function perMillion(perToken) {
  return Number((perToken * 1e6).toPrecision(12));
}
