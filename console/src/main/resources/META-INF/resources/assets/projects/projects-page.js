// The signed-in user's entities (own name, teams) and their projects that hold data.
import { h, replace, state, formatTime, formatNumber } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { href, projectPath } from '../shared/router.js';

export async function renderProjects(view, captured, params, isCurrent) {
  replace(view, h('h1', {}, 'Projects'), state('Loading your projects…'));
  const { entities, projects } = await api.get('/projects');
  if (!isCurrent()) return;
  const sections = entities.map((entity) => {
    const own = projects.filter((project) => project.entity === entity);
    return h('section', { class: 'card', 'aria-labelledby': `entity-${entity}` },
      h('h2', { id: `entity-${entity}` }, entity),
      own.length === 0 ? state(`No project of ${entity} holds data yet. Log calls with a Weave SDK to ${entity}/<project> and it shows up here.`)
        : h('table', { class: 'grid' },
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Project'), h('th', { scope: 'col', class: 'num' }, 'Calls'),
            h('th', { scope: 'col' }, 'Last activity'))),
          h('tbody', {}, own.map((project) => h('tr', {},
            h('td', {}, h('a', { href: href(projectPath(project.entity, project.project, 'calls')) }, project.project)),
            h('td', { class: 'num' }, formatNumber(project.call_count)),
            h('td', {}, formatTime(project.last_activity)))))));
  });
  replace(view, h('h1', {}, 'Projects'), sections.length ? sections
    : state('No project holds data yet. Log calls with a Weave SDK to <entity>/<project> and it shows up here.'));
}
