// A JSON payload template with the variables it may use listed beside it; choosing one inserts it at the cursor.
// The list is the automation-service's (docs/automation-service.md#payload-templates): the event's variables, plus the chosen webhook's
// secrets (${ACCESS_TOKEN} and its signing secret by name). The service validates the template when it is saved.
import { h, replace } from '../shared/dom.js';

const EVENT_VARIABLES = [
  ['event_type', 'the event: CREATE_ARTIFACT, LINK_ARTIFACT, ADD_ARTIFACT_ALIAS, ADD_ARTIFACT_TAG'],
  ['event_author', 'who caused the event'],
  ['entity_name', 'the team or user'],
  ['project_name', 'the project (a registry is a project)'],
  ['artifact_collection_name', 'the collection, e.g. the trained model\'s name'],
  ['artifact_version_string', 'entity/project/collection:alias or :vN'],
  ['artifact_version', 'the version\'s svc-artifact:// URI'],
  ['alias', 'the alias that fired an alias automation'],
  ['tag', 'the tag that fired a tag automation'],
  ['artifact_metadata.KEY', 'a metadata value (replace KEY); alone in a string it keeps its JSON type'],
];

export function payloadEditor({ id, label, initial }) {
  const textarea = h('textarea', { id, rows: 7, spellcheck: 'false', class: 'mono payload' }, initial);
  const secretList = h('span', {});
  const insert = (name) => {
    const text = `\${${name}}`;
    textarea.focus();
    textarea.setRangeText(text, textarea.selectionStart, textarea.selectionEnd, 'end');
  };
  const button = (name, description) => h('li', {}, h('button', { type: 'button', class: 'variable mono',
    'aria-label': `Insert \${${name}}: ${description}`, onclick: () => insert(name) }, `\${${name}}`), ' ', description);
  const element = h('div', { class: 'payload-editor' },
    h('div', { class: 'field' }, h('label', { for: id }, label), textarea),
    h('div', { class: 'variables', role: 'group', 'aria-label': 'Variables' },
      h('h3', {}, 'Variables'), h('ul', {}, EVENT_VARIABLES.map(([name, description]) => button(name, description)), secretList)));
  return {
    element,
    textarea,
    /** The variables of the webhook's secrets: ACCESS_TOKEN when it has an access token, its signing secret's name. */
    setWebhook(webhook) {
      replace(secretList, webhook ? [
        webhook.access_token_secret && button('ACCESS_TOKEN', `the value of the secret ${webhook.access_token_secret}`),
        webhook.secret && button(webhook.secret, 'the webhook\'s signing secret'),
      ] : []);
    },
    /** The template as JSON; throws a message naming the problem when it is not. */
    parsed() {
      try {
        return JSON.parse(textarea.value);
      } catch (error) {
        throw new Error(`${label} is not valid JSON: ${error.message}`);
      }
    },
  };
}
