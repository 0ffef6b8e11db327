// Saved views of the calls table: filters, columns and sort under a name, stored as Weave stores them, a
// `SavedView` object (view_type "traces", label, definition {filter, query, columns, sort_by, page_size}), one
// object per name whose versions are the view's saves. A view opens by URL (#/p/<entity>/<project>/calls?view=<id>).
import { h, replace, state, datetimeLocal } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { href, projectPath } from '../shared/router.js';
import { confirmAction } from '../shared/confirm.js';
import { callsFilter, FEEDBACK_FILTERS, PAGE_SIZE, SORT_FIELDS, sortField } from './calls-query.js';
import { chosenColumns, DEFAULT_COLUMNS, isColumnKey, pathSegments } from './calls-columns.js';

const VIEW_TYPE = 'traces';

/** A view's object id from its name, as Weave's object ids allow (letters, digits, `-`, `_`, `.`). */
export function viewId(label) {
  return label.trim().replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 128) || 'view';
}

export async function savedViews(projectId) {
  const { objs } = await api.post('/objs/query', { project_id: projectId,
    filter: { base_object_classes: ['SavedView'], latest_only: true }, sort_by: [{ field: 'created_at', direction: 'asc' }] });
  return objs.filter((obj) => obj.val?.view_type === VIEW_TYPE)
    .map((obj) => ({ id: obj.object_id, label: obj.val.label ?? obj.object_id, definition: obj.val.definition ?? {} }));
}

/** The table's state as a SavedView definition: the request's filter and query, its sort and the chosen columns. */
export function definitionOf(projectId, params) {
  const { filter, query } = callsFilter(projectId, params);
  const columns = chosenColumns(params);
  const definition = { filter, sort_by: [{ field: sortField(params.get('sort')), direction: params.get('dir') === 'asc' ? 'asc' : 'desc' }],
    page_size: PAGE_SIZE };
  if (query) definition.query = query;
  if (columns !== DEFAULT_COLUMNS) definition.columns = columns.map((key) => ({ path: pathSegments(SORT_FIELDS[key] ?? key) }));
  return definition;
}

/** A column's path back to the table's key: a fixed column by its field, a feedback type in brackets. */
function columnKey(path) {
  const joined = path.map((segment, index) => (index === 1 && path[0] === 'feedback' ? `[${segment}]` : String(segment))).join('.');
  return Object.keys(SORT_FIELDS).find((key) => SORT_FIELDS[key] === joined) ?? joined;
}

const fieldOf = (operand) => operand?.$getField;
const literalOf = (operand) => operand?.$literal;

/** One condition of a view's query as a filter of the form, or null when the form has no such filter. */
function formFilter(condition) {
  const [name] = Object.keys(condition ?? {});
  const operands = condition?.[name];
  if (name === '$eq' && fieldOf(operands?.[0]) === 'summary.weave.status') return ['status', literalOf(operands[1])];
  if ((name === '$gte' || name === '$lt') && fieldOf(operands?.[0]) === 'started_at') {
    const value = datetimeLocal(literalOf(operands[1]), { seconds: true });
    return value && [name === '$gte' ? 'from' : 'to', value];
  }
  if (name === '$eq' && literalOf(operands?.[1]) === true) {
    const path = fieldOf(operands?.[0]?.$convert?.input);
    const feedback = Object.keys(FEEDBACK_FILTERS).find((kind) => FEEDBACK_FILTERS[kind] === path);
    return feedback ? ['feedback', feedback] : null;
  }
  if (name === '$or' && Array.isArray(operands) && operands.length === 2) {
    const texts = operands.map((part) => part?.$contains?.input && literalOf(part.$contains.substr));
    const fields = operands.map((part) => fieldOf(part?.$contains?.input));
    if (fields[0] === 'inputs' && fields[1] === 'output' && texts[0] && texts[0] === texts[1]) return ['text', texts[0]];
  }
  return null;
}

/**
 * A view's definition as the table's URL parameters, and how many of its conditions the table cannot show (a view
 * saved elsewhere may filter on more): those are left out, and said so.
 */
export function paramsOf(projectId, definition) {
  const params = {};
  let unshown = 0;
  const opName = definition.filter?.op_names?.[0];
  if (opName) {
    const match = new RegExp(`^weave:///${projectId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/op/([^:]+):\\*$`).exec(opName);
    params.op = match ? match[1] : opName;
  }
  const expression = definition.query?.$expr;
  const conditions = !expression ? [] : expression.$and ?? [expression];
  for (const condition of conditions) {
    const filter = formFilter(condition);
    if (filter && !params[filter[0]]) params[filter[0]] = filter[1];
    else unshown++;
  }
  const [sort] = definition.sort_by ?? [];
  const fixed = Object.keys(SORT_FIELDS).find((key) => SORT_FIELDS[key] === sort?.field);
  params.sort = fixed ?? (sort?.field && isColumnKey(sort.field) ? sort.field : 'started');
  params.dir = sort?.direction === 'asc' ? 'asc' : 'desc';
  const columns = (definition.columns ?? []).map((column) => columnKey(column.path ?? [])).filter(isColumnKey);
  if (columns.length) params.cols = columns.join(',');
  return { params, unshown };
}

export async function saveView(projectId, label, params) {
  const id = viewId(label);
  await api.post('/obj/create', { obj: { project_id: projectId, object_id: id, builtin_object_class: 'SavedView',
    val: { view_type: VIEW_TYPE, label: label.trim(), definition: definitionOf(projectId, params) } } });
  return id;
}

/** The views as links above the table, the open one marked; a form saves the table as it is under a name. */
export function viewsBar(entity, project, params, open) {
  const projectId = `${entity}/${project}`;
  const path = projectPath(entity, project, 'calls');
  const list = h('ul', { class: 'views' }, h('li', {}, h('a', { href: href(path), 'aria-current': params.get('view') ? undefined : 'page' }, 'All calls')));
  const message = h('span', { class: 'views-message', 'aria-live': 'polite' });
  const current = params.get('view');
  const name = h('input', { id: 'view-name', name: 'view-name', required: true, maxlength: 120, placeholder: 'errors this week',
    value: open?.label ?? '' });
  const form = h('form', { class: 'view-save', onsubmit: async (event) => {
    event.preventDefault();
    if (!name.value.trim()) return;
    try {
      const id = await saveView(projectId, name.value, params);
      location.hash = href(path, { ...Object.fromEntries(params), page: '', view: id });
    } catch (error) {
      replace(message, state(`The view could not be saved: ${error.message}`, 'error'));
    }
  } }, h('label', { for: 'view-name' }, 'Save this view as'), name, h('button', { type: 'submit', class: 'secondary' }, 'Save view'));
  const remove = open && h('button', { type: 'button', class: 'secondary', onclick: async () => {
    if (!await confirmAction('Delete the view', `The view ${open.label} and its saved versions are deleted; the calls stay.`, 'Delete view')) return;
    try {
      await api.post('/obj/delete', { project_id: projectId, object_id: open.id });
      location.hash = href(path);
    } catch (error) {
      replace(message, state(`The view could not be deleted: ${error.message}`, 'error'));
    }
  } }, 'Delete view');
  savedViews(projectId).then((views) => {
    for (const view of views) {
      list.append(h('li', {}, h('a', { href: href(path, { view: view.id }), 'aria-current': view.id === current ? 'page' : undefined }, view.label)));
    }
  }).catch((error) => replace(message, state(`The saved views could not be listed: ${error.message}`, 'error')));
  return h('nav', { class: 'views-bar', 'aria-label': 'Saved views' }, list, form, remove, message);
}

/** Opens a view by its id: its parameters, or null (with the reason shown) when it cannot be read. */
export async function openView(projectId, id) {
  const { obj } = await api.post('/obj/read', { project_id: projectId, object_id: id, digest: 'latest' });
  if (obj.val?.view_type !== VIEW_TYPE) throw new Error(`${id} is not a saved view of calls`);
  return { id, label: obj.val.label ?? id, ...paramsOf(projectId, obj.val.definition ?? {}) };
}

/** A view's own URL (`?view=<id>` alone) opens it; once opened, the URL holds its parameters (always a sort) too. */
export const opensView = (params) => params.has('view') && !params.has('sort');
