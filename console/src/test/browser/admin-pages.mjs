// Uses the console's Automations, API keys and Teams pages as a person does, by visible text and labels: creates
// an API key (sees it once, copies it), revokes it; creates a team and adds a colleague; saves a secret, adds a
// webhook pointing at a receiver this script runs and tests it; creates an automation on a checkpoint's
// ADD_ARTIFACT_ALIAS event; registers a model through the training API (its step-0 checkpoint publishes the
// event); sees the delivery in the history, redelivers it, reloads. Prints one marker per step.
// Usage: node admin-pages.mjs <console origin> <API key> <user> <colleague> <team> <project>
import { createHmac } from 'node:crypto';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';

const [origin, apiKey, user, colleague, team, project] = process.argv.slice(2);
const SIGNING_SECRET = 'console-signing-secret';
const shots = process.env.SCREENSHOTS;
const step = (name) => console.log(`STEP ${name}`);
const shot = async (page, name) => shots && page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
const check = (condition, message) => { if (!condition) throw new Error(message); };

// The webhook receiver: answers every POST with a JSON body naming itself, and keeps what it got.
const received = [];
const receiver = createServer((request, response) => {
  const chunks = [];
  request.on('data', (chunk) => chunks.push(chunk));
  request.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    received.push({ headers: request.headers, body });
    response.writeHead(200, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ answered_by: 'console-test-receiver', request_number: received.length }));
  });
});
await new Promise((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}/hooks/checkpoints`;

const api = (path, key, init = {}) => fetch(`${origin}${path}`, { ...init,
  headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', ...(init.headers ?? {}) } });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox'],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
const page = await context.newPage();
try {
  page.setDefaultTimeout(20000);
  page.on('pageerror', (error) => console.log(`PAGE ERROR ${error.message}`));
  page.on('response', async (response) => {
    if (response.status() >= 400) console.log(`HTTP ${response.status()} ${response.url()} ${await response.text()}`);
  });
  const sections = page.getByRole('navigation', { name: 'Sections' });

  await page.goto(`${origin}/`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await sections.waitFor();
  step('SIGNED_IN');

  // API keys: a new key is shown once, copied, works, then is revoked and stops working.
  await sections.getByRole('link', { name: 'API keys' }).click();
  await page.getByLabel('Key name').fill('ci-runner');
  await page.getByLabel('Key name').press('Enter');
  const shown = page.getByLabel('API key “ci-runner”');
  await shown.waitFor();
  const newKey = await shown.inputValue();
  check(newKey.length > 20 && newKey !== apiKey, `not a new key: ${newKey}`);
  await page.getByText('Copy it now: it is not shown again.').waitFor();
  await shot(page, 'new-key');
  step('KEY_SHOWN_ONCE');
  await page.getByRole('button', { name: 'Copy key' }).click();
  await page.getByText('Copied to the clipboard.').waitFor();
  check(await page.evaluate(() => navigator.clipboard.readText()) === newKey, 'the clipboard does not hold the new key');
  check((await api('/admin/me', newKey)).status === 200, 'the new key does not work');
  step('KEY_COPIED');
  await page.reload();
  const keys = page.getByRole('region', { name: 'Your keys' });
  await keys.getByRole('row', { name: /ci-runner/ }).waitFor();
  check(!(await page.content()).includes(newKey), 'the key is shown again after a reload');
  await keys.getByRole('button', { name: 'Revoke ci-runner' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
  await keys.getByRole('row', { name: /ci-runner/ }).getByText(/^Revoked /).waitFor();
  check((await api('/admin/me', newKey)).status === 401, 'the revoked key still works');
  step('KEY_REVOKED');

  // Teams: create one (its creator is its admin) and add the colleague as a member.
  await sections.getByRole('link', { name: 'Teams' }).click();
  await page.getByLabel('Team name').fill(team);
  await page.getByRole('button', { name: 'Create team' }).click();
  await page.getByRole('heading', { level: 1, name: `Team ${team}` }).waitFor();
  const members = page.getByRole('region', { name: 'Members' });
  await members.getByRole('row', { name: new RegExp(user) }).waitFor();
  await page.getByLabel('User name').fill(colleague);
  await page.getByLabel('Role', { exact: true }).selectOption('member');
  await page.getByRole('button', { name: 'Add member' }).click();
  await members.getByRole('row', { name: new RegExp(colleague) }).waitFor();
  await page.getByText(`${colleague} was added to ${team}.`).waitFor();
  await shot(page, 'team');
  step('MEMBER_ADDED');

  // Automations of the team, chosen from the user's teams.
  await sections.getByRole('link', { name: 'Automations' }).click();
  await page.getByRole('link', { name: team, exact: true }).click();
  await page.getByText(`${team} has no automations yet.`).waitFor();
  check(await page.getByLabel('Team', { exact: true }).inputValue() === team, 'the team picker does not show the team');
  const tabs = page.getByRole('navigation', { name: 'Automation views' });

  await tabs.getByRole('link', { name: 'Secrets' }).click();
  await page.getByLabel('Secret name').fill('SIGNING');
  await page.getByLabel('Secret value').fill(SIGNING_SECRET);
  await page.getByLabel('Secret value').press('Enter');
  await page.getByRole('region', { name: 'Secrets' }).getByRole('cell', { name: 'SIGNING', exact: true }).waitFor();
  check(!(await page.content()).includes(SIGNING_SECRET), 'a secret value is shown');
  step('SECRET_SAVED');

  await tabs.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByLabel('Webhook name').fill('checkpoint receiver');
  await page.getByLabel('URL').fill(receiverUrl);
  await page.getByLabel('Signing secret').selectOption('SIGNING');
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await page.getByRole('region', { name: 'Webhooks' }).getByRole('row', { name: /checkpoint receiver/ }).waitFor();
  await page.getByRole('link', { name: 'Test checkpoint receiver' }).click();
  await page.getByRole('button', { name: 'Send test' }).click();
  const answer = page.getByRole('region', { name: 'Receiver\'s answer' });
  await answer.getByText('HTTP 200').waitFor();
  await answer.getByText(/"answered_by":"console-test-receiver"/).waitFor();
  check(received.length === 1 && JSON.parse(received[0].body).event_type === 'TEST', 'the receiver did not get the test');
  await shot(page, 'webhook-test');
  step('WEBHOOK_TESTED');

  // An automation on the checkpoint's alias event, its payload written with the listed variables.
  await tabs.getByRole('link', { name: 'Automations' }).click();
  await page.getByRole('link', { name: 'New automation' }).click();
  await page.getByLabel('Automation name').fill('new checkpoint');
  await page.getByLabel('Scope').selectOption({ label: 'Every project of the team' });
  await page.getByLabel(`Project (of ${team})`).waitFor({ state: 'hidden' });
  await page.getByLabel('Scope').selectOption({ label: 'A project or registry' });
  await page.getByLabel(`Project (of ${team})`).fill(project);
  await page.getByLabel('Event', { exact: true }).selectOption('ADD_ARTIFACT_ALIAS');
  await page.getByLabel('Alias filter (regular expression)').fill('^latest$');
  await page.getByLabel('Webhook', { exact: true }).selectOption({ label: 'checkpoint receiver' });
  const template = page.getByLabel('Payload template');
  await template.fill('{"checkpoint": "');
  const variables = page.getByRole('group', { name: 'Variables' });
  // By keyboard: the variable's button takes the focus, Enter inserts it at the cursor.
  await variables.getByRole('button', { name: /^Insert \$\{artifact_version_string\}/ }).press('Enter');
  await template.press('End');
  await template.pressSequentially('", "by": "');
  await variables.getByRole('button', { name: /^Insert \$\{event_author\}/ }).click();
  await template.press('End');
  await template.pressSequentially('"}');
  await variables.getByRole('button', { name: /^Insert \$\{SIGNING\}/ }).waitFor();
  await shot(page, 'new-automation');
  await page.getByRole('button', { name: 'Create automation' }).click();
  await page.getByRole('heading', { level: 2, name: 'new checkpoint' }).waitFor();
  await page.getByText('No delivery yet: the automation has not fired.').waitFor();
  step('AUTOMATION_CREATED');

  // A model registered through the training API: its step-0 checkpoint is linked and gets the alias latest.
  const registered = await api('/v1/preview/models', apiKey, { method: 'POST',
    body: JSON.stringify({ entity: team, project, name: 'storyteller', base_model: 'stories260K' }) });
  check(registered.ok, `the model was not registered: ${registered.status} ${await registered.text()}`);
  step('CHECKPOINT_REGISTERED');

  const history = page.getByRole('region', { name: 'Delivery history' });
  const deadline = Date.now() + 60000;
  while (!(await history.getByText('SUCCEEDED', { exact: true }).count())) {
    check(Date.now() < deadline, 'no SUCCEEDED delivery appeared in the history');
    await page.waitForTimeout(500);
    await history.getByRole('button', { name: 'Refresh' }).click();
  }
  await history.getByText('1 attempt', { exact: true }).click();
  await history.getByRole('cell', { name: /"answered_by":"console-test-receiver"/ }).waitFor();
  const delivered = received[received.length - 1];
  const payload = JSON.parse(delivered.body);
  check(payload.checkpoint === `${team}/${project}/storyteller:latest` && payload.by === user, `unexpected payload ${delivered.body}`);
  check(delivered.headers['x-svc-signature'] === createHmac('sha256', SIGNING_SECRET).update(delivered.body).digest('base64'),
    'the delivery is not signed with the secret');
  await shot(page, 'delivered');
  step('DELIVERED');

  await history.getByRole('button', { name: /^Redeliver ADD_ARTIFACT_ALIAS/ }).click();
  await history.getByText('Redelivery queued.').waitFor();
  await history.getByText('2 attempts', { exact: true }).waitFor({ timeout: 30000 });
  await history.getByText('SUCCEEDED', { exact: true }).waitFor();
  check(received.length === 3 && received[2].headers['webhook-id'] === delivered.headers['webhook-id'],
    'the redelivery did not reach the receiver with the same webhook-id');
  step('REDELIVERED');

  await page.reload();
  await page.getByRole('heading', { level: 2, name: 'new checkpoint' }).waitFor();
  await page.getByRole('region', { name: 'Delivery history' }).getByText('2 attempts', { exact: true }).waitFor();
  step('RELOADED');
} catch (error) {
  await shot(page, 'admin-failure');
  throw error;
} finally {
  await browser.close();
  receiver.close();
}
