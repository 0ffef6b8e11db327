// The console's shell: picks the page for the URL's #fragment, asks for an API key first when none is
// signed in, and keeps the top bar (breadcrumbs, sign-out) in step.
import { h, replace, state } from './shared/dom.js';
import { currentRoute, href, projectPath } from './shared/router.js';
import { session } from './shared/session.js';
import { whoAmI } from './shared/identity.js';
import { detectEmojiSupport } from './shared/emoji.js';
import { renderSignIn } from './signin/signin-page.js';
import { renderProjects } from './projects/projects-page.js';
import { renderCalls } from './calls/calls-page.js';
import { renderTrace } from './trace/trace-page.js';
import { renderCallLink } from './calls/call-link.js';
import { renderCompareCalls } from './calls/compare-calls.js';
import { renderThreads, renderThread } from './threads/threads-page.js';
import { renderObjects, renderObject, renderTable } from './objects/objects-page.js';
import { renderAutomationsHome, renderAutomationList, renderNewAutomation, renderAutomation } from './automations/automations-page.js';
import { renderWebhooks, renderWebhook } from './automations/webhooks-page.js';
import { renderSecrets } from './automations/secrets-page.js';
import { renderKeys } from './keys/keys-page.js';
import { renderTeams, renderTeam } from './teams/teams-page.js';
import { renderModels, renderModel } from './training/training-page.js';
import { renderPlayground } from './playground/playground-page.js';
import { renderUsage } from './usage/usage-page.js';
import { renderPrices } from './prices/prices-page.js';
import { renderEvaluations, renderEvaluationCompare } from './evaluations/evaluations-page.js';
import { renderDashboard } from './dashboard/dashboard-page.js';
import { renderQueues, renderQueue } from './queues/queues-page.js';

const PROJECT = '/p/([^/]+)/([^/]+)';
const AUTOMATIONS = '/automations/([^/]+)';
const ROUTES = [
  [/^\/?$/, renderProjects, () => []],
  [new RegExp(`^${PROJECT}/?(?:calls)?$`), renderCalls, ([entity, project]) => projectCrumbs(entity, project, 'Calls')],
  [new RegExp(`^${PROJECT}/calls/([^/]+)$`), renderCallLink, ([entity, project]) => projectCrumbs(entity, project, 'Calls', 'Call')],
  [new RegExp(`^${PROJECT}/compare-calls$`), renderCompareCalls, ([entity, project]) => projectCrumbs(entity, project, 'Calls', 'Compare')],
  [new RegExp(`^${PROJECT}/traces/([^/]+)$`), renderTrace, ([entity, project]) => projectCrumbs(entity, project, 'Calls', 'Trace')],
  [new RegExp(`^${PROJECT}/dashboard$`), renderDashboard, ([entity, project]) => projectCrumbs(entity, project, 'Dashboard')],
  [new RegExp(`^${PROJECT}/evaluations$`), renderEvaluations, ([entity, project]) => projectCrumbs(entity, project, 'Evaluations')],
  [new RegExp(`^${PROJECT}/evaluations/compare$`), renderEvaluationCompare, ([entity, project]) => projectCrumbs(entity, project, 'Evaluations', 'Compare')],
  [new RegExp(`^${PROJECT}/queues$`), renderQueues, ([entity, project]) => projectCrumbs(entity, project, 'Queues')],
  [new RegExp(`^${PROJECT}/queues/([^/]+)$`), renderQueue, ([entity, project]) => projectCrumbs(entity, project, 'Queues', 'Queue')],
  [new RegExp(`^${PROJECT}/threads$`), renderThreads, ([entity, project]) => projectCrumbs(entity, project, 'Threads')],
  [new RegExp(`^${PROJECT}/threads/([^/]+)$`), renderThread, ([entity, project]) => projectCrumbs(entity, project, 'Threads', 'Thread')],
  [new RegExp(`^${PROJECT}/objects$`), renderObjects, ([entity, project]) => projectCrumbs(entity, project, 'Objects')],
  [new RegExp(`^${PROJECT}/objects/([^/]+)$`), renderObject, ([entity, project]) => projectCrumbs(entity, project, 'Objects', 'Object')],
  [new RegExp(`^${PROJECT}/tables/([^/]+)$`), renderTable, ([entity, project]) => projectCrumbs(entity, project, 'Objects', 'Table')],
  [new RegExp(`^${PROJECT}/training$`), renderModels, ([entity, project]) => projectCrumbs(entity, project, 'Training')],
  [new RegExp(`^${PROJECT}/training/([^/]+)$`), renderModel, ([entity, project]) => projectCrumbs(entity, project, 'Training', 'Model')],
  [new RegExp(`^${PROJECT}/playground$`), renderPlayground, ([entity, project]) => projectCrumbs(entity, project, 'Playground')],
  [new RegExp(`^${PROJECT}/usage$`), renderUsage, ([entity, project]) => projectCrumbs(entity, project, 'Usage')],
  [new RegExp(`^${PROJECT}/prices$`), renderPrices, ([entity, project]) => projectCrumbs(entity, project, 'Prices')],
  [/^\/automations$/, renderAutomationsHome, () => sectionCrumbs('Automations')],
  [new RegExp(`^${AUTOMATIONS}$`), renderAutomationList, ([entity]) => sectionCrumbs('Automations', entity)],
  [new RegExp(`^${AUTOMATIONS}/new$`), renderNewAutomation, ([entity]) => sectionCrumbs('Automations', entity, 'New automation')],
  [new RegExp(`^${AUTOMATIONS}/automation/([^/]+)$`), renderAutomation, ([entity]) => sectionCrumbs('Automations', entity, 'Automation')],
  [new RegExp(`^${AUTOMATIONS}/webhooks$`), renderWebhooks, ([entity]) => sectionCrumbs('Automations', entity, 'Webhooks')],
  [new RegExp(`^${AUTOMATIONS}/webhooks/([^/]+)$`), renderWebhook, ([entity]) => sectionCrumbs('Automations', entity, 'Webhook')],
  [new RegExp(`^${AUTOMATIONS}/secrets$`), renderSecrets, ([entity]) => sectionCrumbs('Automations', entity, 'Secrets')],
  [/^\/keys$/, renderKeys, () => sectionCrumbs('API keys')],
  [/^\/teams$/, renderTeams, () => sectionCrumbs('Teams')],
  [/^\/teams\/([^/]+)$/, renderTeam, ([team]) => sectionCrumbs('Teams', team)],
];

const TABS = { Calls: 'calls', Dashboard: 'dashboard', Evaluations: 'evaluations', Queues: 'queues', Threads: 'threads', Objects: 'objects', Training: 'training', Playground: 'playground', Usage: 'usage',
  Prices: 'prices' };
const SECTIONS = { Automations: '/automations', 'API keys': '/keys', Teams: '/teams' };

/** Automations › entity › leaf, Teams › team: the section links to its first view, the entity to its own. */
function sectionCrumbs(section, entity, leaf) {
  const sectionPath = SECTIONS[section];
  return [
    h('a', { href: `#${sectionPath}` }, section),
    entity && h('a', { href: `#${sectionPath}/${encodeURIComponent(entity)}` }, entity),
    leaf && h('span', { class: 'leaf' }, leaf),
  ];
}

function projectCrumbs(entity, project, tab, leaf) {
  return [
    h('a', { href: href(projectPath(entity, project, 'calls')) }, `${entity} / ${project}`),
    h('span', { class: 'tabs' }, Object.entries(TABS).map(([name, path]) =>
      h('a', { href: href(projectPath(entity, project, path)), 'aria-current': name === tab && !leaf ? 'page' : null,
        class: name === tab ? 'tab active' : 'tab' }, name))),
    leaf && h('span', { class: 'leaf' }, leaf),
  ];
}

let renderCount = 0;

async function render() {
  const view = document.getElementById('view');
  const signOut = document.getElementById('sign-out');
  const breadcrumbs = document.getElementById('breadcrumbs');
  const rendering = ++renderCount;
  const isCurrent = () => rendering === renderCount;
  if (!session.key()) {
    signOut.hidden = true;
    document.getElementById('sections').hidden = true;
    document.getElementById('who').textContent = '';
    replace(breadcrumbs);
    renderSignIn(view, render);
    return;
  }
  signOut.hidden = false;
  document.getElementById('sections').hidden = false;
  whoAmI().then((me) => { document.getElementById('who').textContent = me.name; }, () => {});
  const { path, params } = currentRoute();
  for (const [pattern, page, crumbs] of ROUTES) {
    const match = pattern.exec(path);
    if (match) {
      const captured = match.slice(1).map(decodeURIComponent);
      replace(breadcrumbs, h('a', { href: '#/' }, 'Projects'), crumbs(captured));
      try {
        await page(view, captured, params, isCurrent);
      } catch (error) {
        if (isCurrent()) replace(view, state(`Something went wrong: ${error.message}`, 'error'));
      }
      return;
    }
  }
  replace(breadcrumbs, h('a', { href: '#/' }, 'Projects'));
  replace(view, h('h1', {}, 'Not found'), state(`No page lives at ${path}.`, 'error'), h('a', { href: '#/' }, 'Go to your projects'));
}

document.getElementById('sign-out').addEventListener('click', () => {
  session.signOut();
  location.hash = '#/';
  render();
});
window.addEventListener('console:unauthorized', () => {
  session.signOut();
  render();
});
window.addEventListener('hashchange', render);
detectEmojiSupport();
render();
