import { h } from './dom.js';

const LABELS = { success: 'Success', error: 'Error', running: 'Running', descendant_error: 'Descendant error' };

/** A call's status as a coloured badge with its name in words (the colour is never the only signal). */
export function statusBadge(status) {
  return h('span', { class: `status status-${status ?? 'unknown'}` }, LABELS[status] ?? status ?? 'Unknown');
}

export const STATUSES = Object.keys(LABELS).map((value) => ({ value, label: LABELS[value] }));

/**
 * Total tokens and cost over a call's models (summary.usage and, with include_costs, summary.weave.costs),
 * counted as the tracing-service counts summary.weave.total_tokens and total_cost, which the table sorts by.
 */
export function usageTotals(summary) {
  const usage = Object.values(summary?.usage ?? {});
  const costs = Object.values(summary?.weave?.costs ?? {});
  const tokens = usage.reduce((sum, model) => sum + (model.total_tokens
    ?? (model.prompt_tokens ?? 0) + (model.input_tokens ?? 0) + (model.completion_tokens ?? 0) + (model.output_tokens ?? 0)), 0);
  const cost = costs.reduce((sum, model) => sum + (model.prompt_tokens_total_cost ?? 0) + (model.completion_tokens_total_cost ?? 0), 0);
  return { tokens: usage.length ? tokens : null, cost: costs.length ? cost : null };
}
