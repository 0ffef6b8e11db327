// Teams: the user's teams (administrators: every team), creating one, and a team's members; team admins add,
// re-role and remove members. Everything goes through the tracing-service's identity API (/admin/…).
import { h, replace, state, formatTime } from '../shared/dom.js';
import { api } from '../shared/api.js';
import { href, navigate } from '../shared/router.js';
import { whoAmI, forget } from '../shared/identity.js';
import { confirmAction } from '../shared/confirm.js';

const ROLES = ['member', 'admin'];

export async function renderTeams(view, captured, params, isCurrent) {
  replace(view, h('h1', {}, 'Teams'), state('Loading your teams…'));
  const [me, teams] = await Promise.all([whoAmI(), api.get('/admin/teams')]);
  if (!isCurrent()) return;
  const message = h('div', { 'aria-live': 'polite' });
  const nameInput = h('input', { id: 'team-name', required: true, pattern: '[A-Za-z0-9_.\\-]{1,64}', autocomplete: 'off' });
  const form = h('form', { class: 'inline-form', onsubmit: async (event) => {
    event.preventDefault();
    const name = nameInput.value.trim();
    try {
      await api.post('/admin/teams', { name });
      forget();
      navigate(teamPath(name));
    } catch (error) {
      replace(message, state(`The team could not be created: ${error.message}`, 'error'));
    }
  } }, h('label', { for: 'team-name' }, 'Team name'), nameInput, h('button', { type: 'submit' }, 'Create team'));

  replace(view, h('h1', {}, 'Teams'),
    h('section', { class: 'card', 'aria-label': me.admin ? 'Every team' : 'Your teams' },
      h('h2', {}, me.admin ? 'Every team' : 'Your teams'),
      teams.length === 0 ? state('You belong to no team yet. Create one below: you become its admin.')
        : h('table', { class: 'grid' },
          h('thead', {}, h('tr', {}, ['Team', 'Your role', 'Created'].map((label) => h('th', { scope: 'col' }, label)))),
          h('tbody', {}, teams.map((team) => h('tr', {},
            h('td', {}, h('a', { href: href(teamPath(team.name)) }, team.name)),
            h('td', {}, team.role ?? (me.admin ? 'administrator' : '')),
            h('td', {}, formatTime(team.created_at))))))),
    h('section', { class: 'card', 'aria-label': 'New team' }, h('h2', {}, 'Create a team'),
      h('p', {}, 'You become the new team\'s admin.'), form, message));
}

export async function renderTeam(view, [team], params, isCurrent) {
  replace(view, h('h1', {}, `Team ${team}`), state('Loading the members…'));
  const me = await whoAmI();
  if (!isCurrent()) return;
  const manage = me.admin || me.teams.some((membership) => membership.name === team && membership.role === 'admin');
  const list = h('div', {}, state('Loading the members…'));
  const message = h('div', { 'aria-live': 'polite' });
  const membersPath = `/admin/teams/${encodeURIComponent(team)}/members`;
  const memberPath = (user) => `${membersPath}/${encodeURIComponent(user)}`;

  /** Runs a change, says what it did or why it failed, and reloads the members; true when it worked. */
  async function act(action, done) {
    try {
      await action();
    } catch (error) {
      replace(message, state(error.message, 'error'));
      return false;
    }
    forget();
    replace(message, state(done));
    await load();
    return true;
  }

  async function load() {
    try {
      const members = await api.get(membersPath);
      if (!isCurrent()) return;
      replace(list, members.length === 0 ? state('This team has no members.') : h('table', { class: 'grid' },
        h('thead', {}, h('tr', {}, ['User', 'Role', manage ? '' : null].filter((label) => label !== null)
          .map((label) => h('th', { scope: 'col' }, label)))),
        h('tbody', {}, members.map((member) => h('tr', {},
          h('td', {}, member.user),
          h('td', {}, manage ? roleSelect(`Role of ${member.user}`, member.role, (role) =>
            act(() => api.put(memberPath(member.user), { role }), `${member.user} is now ${role === 'admin' ? 'an admin' : 'a member'}.`))
            : member.role),
          manage && h('td', {}, h('button', { type: 'button', class: 'secondary', 'aria-label': `Remove ${member.user}`, onclick: async () => {
            if (await confirmAction(`Remove ${member.user} from ${team}?`, `${member.user} loses access to ${team}'s projects and automations.`, 'Remove')) {
              await act(() => api.delete(memberPath(member.user)), `${member.user} was removed from ${team}.`);
            }
          } }, 'Remove')))))));
    } catch (error) {
      replace(list, state(error.status === 404 ? `There is no team named ${team}.` : `The members could not be loaded: ${error.message}`, 'error'));
    }
  }

  const userInput = h('input', { id: 'member-name', required: true, autocomplete: 'off' });
  const newRole = roleSelect('Role', 'member');
  newRole.id = 'member-role';
  const addForm = h('form', { class: 'inline-form', onsubmit: async (event) => {
    event.preventDefault();
    const user = userInput.value.trim();
    if (await act(() => api.put(memberPath(user), { role: newRole.value }), `${user} was added to ${team}.`)) {
      userInput.value = '';
    }
  } },
  h('label', { for: 'member-name' }, 'User name'), userInput,
  h('label', { for: 'member-role' }, 'Role'), newRole,
  h('button', { type: 'submit' }, 'Add member'));

  replace(view, h('h1', {}, `Team ${team}`),
    h('p', {}, h('a', { href: href('/automations/' + encodeURIComponent(team)) }, `Automations of ${team}`)),
    h('section', { class: 'card', 'aria-label': 'Members' }, h('h2', {}, 'Members'), list),
    manage ? h('section', { class: 'card', 'aria-label': 'Add a member' }, h('h2', {}, 'Add a member'), addForm)
      : state('Only the team\'s admins change its members.'),
    message);
  await load();
}

function teamPath(team) {
  return `/teams/${encodeURIComponent(team)}`;
}

function roleSelect(label, selected, onchange) {
  return h('select', { 'aria-label': label, onchange: onchange && ((event) => onchange(event.target.value)) },
    ROLES.map((role) => h('option', { value: role, selected: role === selected }, role)));
}
