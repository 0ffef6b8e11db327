// Published objects by kind (ops, datasets, models, other), an object's versions with aliases, tags and digests,
// a version's value (a prompt as its messages), its labels, its changes from another version, and a dataset's rows
// page by page.
import { h, replace, state, formatTime, formatNumber } from '../shared/dom.js';
import { api, parseRef } from '../shared/api.js';
import { href, navigate, projectPath } from '../shared/router.js';
import { jsonView } from '../shared/json-view.js';
import { differencesTable, labelsSection, promptView } from './object-versions.js';

const KINDS = [['ops', 'Ops'], ['datasets', 'Datasets'], ['models', 'Models'], ['other', 'Other objects']];
const ROWS_PER_PAGE = 50;

function kindOf(obj) {
  if (obj.kind === 'op') return 'ops';
  if (obj.base_object_class === 'Dataset' || obj.leaf_object_class === 'Dataset') return 'datasets';
  if (obj.base_object_class === 'Model' || obj.leaf_object_class === 'Model') return 'models';
  return 'other';
}

export async function renderObjects(view, [entity, project], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const kind = KINDS.some(([key]) => key === params.get('kind')) ? params.get('kind') : 'datasets';
  const tabs = h('nav', { class: 'subtabs', 'aria-label': 'Kinds of objects' }, KINDS.map(([key, label]) =>
    h('a', { href: href(projectPath(entity, project, 'objects'), { kind: key }), class: key === kind ? 'tab active' : 'tab',
      'aria-current': key === kind ? 'page' : null }, label)));
  replace(view, h('h1', {}, 'Objects'), tabs, state('Loading objects…'));
  const { objs } = await api.post('/objs/query', { project_id: projectId, filter: { latest_only: true }, metadata_only: true,
    sort_by: [{ field: 'created_at', direction: 'desc' }] });
  if (!isCurrent()) return;
  const shown = objs.filter((obj) => kindOf(obj) === kind);
  const label = KINDS.find(([key]) => key === kind)[1].toLowerCase();
  replace(view, h('h1', {}, 'Objects'), tabs, shown.length === 0 ? state(`This project has no ${label}.`)
    : h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, ['Name', 'Class', 'Versions', 'Last published'].map((text, index) =>
        h('th', { scope: 'col', class: index === 2 ? 'num' : null }, text)))),
      h('tbody', {}, shown.map((obj) => h('tr', {},
        h('td', {}, h('a', { href: href(projectPath(entity, project, 'objects', obj.object_id)) }, obj.object_id)),
        h('td', {}, obj.leaf_object_class ?? obj.base_object_class ?? obj.kind),
        h('td', { class: 'num' }, formatNumber(obj.version_index + 1)),
        h('td', {}, formatTime(obj.created_at)))))));
}

export async function renderObject(view, [entity, project, objectId], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  const path = projectPath(entity, project, 'objects', objectId);
  replace(view, h('h1', {}, objectId), state('Loading versions…'));
  const { objs: versions } = await api.post('/objs/query', { project_id: projectId, filter: { object_ids: [objectId] },
    metadata_only: true, include_tags_and_aliases: true, sort_by: [{ field: 'created_at', direction: 'desc' }] });
  if (!isCurrent()) return;
  if (versions.length === 0) {
    replace(view, h('h1', {}, objectId), state(`No object ${objectId} exists in ${projectId}.`, 'error'));
    return;
  }
  const digest = params.get('digest') ?? versions.find((version) => version.is_latest)?.digest ?? versions[0].digest;
  const value = h('div', {}, state('Loading the value…'));
  replace(view, h('h1', {}, objectId),
    h('div', { class: 'object' },
      h('section', { class: 'versions', 'aria-label': 'Versions' }, h('h2', {}, 'Versions'), h('ol', {}, versions.map((version) =>
        h('li', {}, h('a', { href: href(path, { digest: version.digest }), class: version.digest === digest ? 'selected' : null,
          'aria-current': version.digest === digest ? 'true' : null },
        h('span', { class: 'alias' }, `v${version.version_index}`),
        (version.aliases ?? (version.is_latest ? ['latest'] : [])).map((alias) => h('span', { class: 'alias' }, alias)),
        (version.tags ?? []).map((tag) => h('span', { class: 'tag' }, tag)),
        ' ', h('span', { class: 'mono digest' }, version.digest.slice(0, 12)), ' ', formatTime(version.created_at)))))),
      h('section', { class: 'value', 'aria-label': 'Value' }, value)));
  try {
    const { obj } = await api.post('/obj/read', { project_id: projectId, object_id: objectId, digest });
    if (!isCurrent()) return;
    const rowsRef = parseRef(obj.val?.rows);
    const version = versions.find((candidate) => candidate.digest === obj.digest) ?? obj;
    // Another version to compare with (?compare=<digest>), offered from the list.
    const others = versions.filter((candidate) => candidate.digest !== obj.digest);
    const compareWith = others.find((candidate) => candidate.digest === params.get('compare'));
    const compareSelect = h('select', { id: 'compare-version', onchange: (event) => navigate(path, { digest, compare: event.target.value }) },
      h('option', { value: '' }, 'No other version'), others.map((other) => h('option', { value: other.digest, selected: other === compareWith },
        `v${other.version_index} (${other.digest.slice(0, 8)})`)));
    let differences = null;
    if (compareWith) {
      const { obj: other } = await api.post('/obj/read', { project_id: projectId, object_id: objectId, digest: compareWith.digest });
      if (!isCurrent()) return;
      differences = differencesTable(other.val, obj.val, `v${other.version_index}`, `v${obj.version_index}`);
    }
    replace(value, h('h2', {}, `v${obj.version_index}`, ' ', h('span', { class: 'mono digest' }, obj.digest)),
      labelsSection(projectId, objectId, version),
      others.length > 0 ? h('div', { class: 'field inline' }, h('label', { for: 'compare-version' }, 'Compare with'), compareSelect) : null,
      differences,
      promptView(obj.val),
      rowsRef?.kind === 'table' && h('div', {}, h('h3', {}, 'Rows'), await rowsTable(projectId, rowsRef.name, params, path, { digest })),
      h('h3', {}, 'Value'), jsonView(obj.val));
  } catch (error) {
    if (isCurrent()) replace(value, state(`The value could not be read: ${error.message}`, 'error'));
  }
}

export async function renderTable(view, [entity, project, tableDigest], params, isCurrent) {
  const projectId = `${entity}/${project}`;
  replace(view, h('h1', {}, 'Table'), state('Loading rows…'));
  const table = await rowsTable(projectId, tableDigest, params, projectPath(entity, project, 'tables', tableDigest), {});
  if (isCurrent()) replace(view, h('h1', {}, 'Table ', h('span', { class: 'mono digest' }, tableDigest.slice(0, 12))), table);
}

/** A table's rows, a page at a time (?rows_page=N), with its row count. */
async function rowsTable(projectId, digest, params, path, keep) {
  const page = Math.max(0, Number.parseInt(params.get('rows_page') ?? '0', 10) || 0);
  const [{ rows }, { count }] = await Promise.all([
    api.post('/table/query', { project_id: projectId, digest, limit: ROWS_PER_PAGE, offset: page * ROWS_PER_PAGE }),
    api.post('/table/query_stats', { project_id: projectId, digest }),
  ]);
  const columns = [...new Set(rows.flatMap((row) => (row.val && typeof row.val === 'object' ? Object.keys(row.val) : ['value'])))];
  const cell = (value) => (value !== null && typeof value === 'object' ? jsonView(value, { open: 0 }) : String(value ?? ''));
  const go = (next) => navigate(path, { ...keep, rows_page: next || '' });
  return h('div', { class: 'rows' },
    h('p', { class: 'total' }, `${formatNumber(count)} row${count === 1 ? '' : 's'}`),
    rows.length === 0 ? state('This table has no rows here.') : h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, '#'), columns.map((column) => h('th', { scope: 'col' }, column)))),
      h('tbody', {}, rows.map((row) => h('tr', {}, h('td', { class: 'num' }, row.original_index),
        columns.map((column) => h('td', {}, cell(row.val && typeof row.val === 'object' ? row.val[column] : row.val))))))),
    h('nav', { class: 'pager', 'aria-label': 'Row pages' },
      h('button', { type: 'button', disabled: page === 0, onclick: () => go(page - 1) }, 'Previous rows'),
      h('span', {}, `Rows ${page * ROWS_PER_PAGE + 1}–${page * ROWS_PER_PAGE + rows.length} of ${formatNumber(count)}`),
      h('button', { type: 'button', disabled: (page + 1) * ROWS_PER_PAGE >= count, onclick: () => go(page + 1) }, 'Next rows')));
}
