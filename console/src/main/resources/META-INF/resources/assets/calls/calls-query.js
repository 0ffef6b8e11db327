// The calls table's URL parameters as a calls/stream_query request: trace roots (or an op's calls), newest first, one page.
import { chosenColumns, neededColumns, needsFeedback, sortsByPath } from './calls-columns.js';

export const PAGE_SIZE = 50;

/** Sortable columns: the URL's sort name and the API's field. */
export const SORT_FIELDS = {
  op: 'op_name',
  name: 'summary.weave.trace_name',
  status: 'summary.weave.status',
  started: 'started_at',
  latency: 'summary.weave.latency_ms',
  tokens: 'summary.weave.total_tokens',
  cost: 'summary.weave.total_cost',
  user: 'svc_user_id',
};

const field = (name) => ({ $getField: name });
const literal = (value) => ({ $literal: value });
const contains = (name, text) => ({ $contains: { input: field(name), substr: literal(text), case_insensitive: true } });

/** The Feedback filter's choices: the feedback field a call must have. */
export const FEEDBACK_FILTERS = { reaction: 'feedback.[wandb.reaction.1].payload.emoji', note: 'feedback.[wandb.note.1].payload.note' };

export function callsFilter(projectId, params) {
  const conditions = [];
  if (params.get('status')) conditions.push({ $eq: [field('summary.weave.status'), literal(params.get('status'))] });
  if (params.get('from')) conditions.push({ $gte: [field('started_at'), literal(new Date(params.get('from')).toISOString())] });
  if (params.get('to')) conditions.push({ $lt: [field('started_at'), literal(new Date(params.get('to')).toISOString())] });
  if (params.get('text')) conditions.push({ $or: [contains('inputs', params.get('text')), contains('output', params.get('text'))] });
  const has = (path) => ({ $eq: [{ $convert: { input: field(path), to: 'exists' } }, literal(true)] });
  if (Object.hasOwn(FEEDBACK_FILTERS, params.get('feedback') ?? '')) conditions.push(has(FEEDBACK_FILTERS[params.get('feedback')]));
  // An op is picked by name: every version of a published op of that name, or the plain op name, at any depth
  // (a child's op is a choice too); without one, the trace roots.
  const op = params.get('op');
  const request = { project_id: projectId, filter: op ? { op_names: [`weave:///${projectId}/op/${op}:*`, op] } : { trace_roots_only: true } };
  if (conditions.length === 1) request.query = { $expr: conditions[0] };
  if (conditions.length > 1) request.query = { $expr: { $and: conditions } };
  return request;
}

/** The API's sort field of the URL's `sort`: a fixed column's field, or a chosen field's own path. */
export function sortField(sort) {
  if (sort && Object.hasOwn(SORT_FIELDS, sort)) return SORT_FIELDS[sort];
  return sort && sortsByPath(sort) ? sort : 'started_at';
}

export function callsPageRequest(projectId, params) {
  const sort = sortField(params.get('sort'));
  const columns = chosenColumns(params);
  const direction = params.get('dir') === 'asc' ? 'asc' : 'desc';
  const page = Math.max(0, Number.parseInt(params.get('page') ?? '0', 10) || 0);
  return {
    ...callsFilter(projectId, params),
    sort_by: [{ field: sort, direction }],
    limit: PAGE_SIZE,
    offset: page * PAGE_SIZE,
    include_costs: true,
    include_feedback: needsFeedback(columns),
    // Inputs, output and attributes only when a chosen column shows them: leaving them out keeps a page of large calls small.
    columns: ['id', 'trace_id', 'parent_id', 'op_name', 'display_name', 'started_at', 'ended_at', 'exception',
      'summary', 'svc_user_id', ...neededColumns(columns)],
  };
}
