// Who the signed-in key belongs to (GET /admin/me of the tracing-service): name, administrator or not, the key's
// id, and the teams with the user's role there. Asked once per key; forget() after a change of teams.
import { api } from './api.js';
import { session } from './session.js';

let asked = null;

export function whoAmI() {
  const key = session.key();
  if (!asked || asked.key !== key) {
    const answer = api.get('/admin/me');
    asked = { key, answer };
    answer.catch(() => { if (asked?.answer === answer) asked = null; });
  }
  return asked.answer;
}

export function forget() {
  asked = null;
}

/**
 * The entities whose automations the user may open, each with whether the user may change them: the user's own
 * entity, then their teams (administrators: every team). Members read; team admins and administrators change.
 */
export async function automationEntities() {
  const [me, teams] = await Promise.all([whoAmI(), api.get('/admin/teams')]);
  const own = me.has_api_keys ? [{ name: me.name, kind: 'Your own', manage: true }] : [];
  return own.concat(teams.map((team) => ({ name: team.name, kind: team.role ? `Team (${team.role})` : 'Team',
    manage: me.admin || team.role === 'admin' })));
}
