// The link the Weave TypeScript SDK prints for a traced call, opened in the browser: the SDK logs a call with the
// settings the README gives (WF_TRACE_SERVER_URL the console's origin, WANDB_BASE_URL its HTTPS origin, WANDB_API_KEY),
// this captures the "🍩 <link>" line it prints, opens that address as it is in a fresh browser (which accepts the
// self-signed certificate, as a person does once), signs in where the console asks, and sees the call's trace with
// that call selected; then the Python SDK's form of the link on the HTTP origin (…/weave/r/call/<id>).
// Usage: WF_TRACE_SERVER_URL=<origin> WANDB_BASE_URL=<https origin> WANDB_API_KEY=<key> node call-link.mjs <origin> <key> <entity/project>
import * as weave from 'weave';
import { chromium } from 'playwright-core';

const [origin, apiKey, projectId] = process.argv.slice(2);
const shots = process.env.SCREENSHOTS;
const step = (name) => console.log(`STEP ${name}`);

const printed = [];
const log = console.log;
console.log = (...args) => { printed.push(args.join(' ')); log(...args); };
const client = await weave.init(projectId);
const writeStory = weave.op(async function writeStory(topic) {
  return `Once upon a time, a ${topic} learned to fly.`;
}, { parameterNames: ['topic'] });
await writeStory('dragon');
console.log = log;

const linkLine = printed.find((line) => line.startsWith('🍩 '));
if (!linkLine) throw new Error(`the SDK printed no call link: ${JSON.stringify(printed)}`);
const link = linkLine.slice('🍩 '.length);
const shape = new RegExp(`^https://${new URL(process.env.WANDB_BASE_URL).host}/${projectId}/r/call/([0-9a-f-]+)$`);
const [, callId] = shape.exec(link) ?? [];
if (!callId) throw new Error(`the SDK's link ${link} is not https://<WANDB_BASE_URL's host>/${projectId}/r/call/<id>`);
console.log(`LINK ${link}`);
step('LINK_PRINTED');

async function signIn(page) {
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, ignoreHTTPSErrors: true });
  page.setDefaultTimeout(20000);
  page.on('pageerror', (error) => console.log(`PAGE ERROR ${error.message}`));
  await page.goto(link);
  await signIn(page);
  step('SIGNED_IN');

  // The SDK printed the link before its batch was sent: the page waits for the call, then opens its trace.
  await page.getByRole('heading', { name: 'Trace: writeStory' }).waitFor();
  await page.locator(`a[aria-current="true"][href*="call=${callId}"]`).waitFor();
  const [entity, project] = projectId.split('/');
  const expected = new RegExp(`#/p/${entity}/${project}/traces/[^?]+\\?call=${callId}$`);
  if (!expected.test(page.url())) throw new Error(`the link opened ${page.url()}`);
  await page.getByText('learned to fly').first().waitFor();
  if (shots) await page.screenshot({ path: `${shots}/call-link.png`, fullPage: true });
  step('CALL_OPENED');

  // Another origin, so another sign-in (the key lives in the tab's session storage of each origin).
  await page.goto(`${origin}/${projectId}/weave/r/call/${callId}`);
  await signIn(page);
  await page.waitForURL(expected);
  await page.getByRole('heading', { name: 'Trace: writeStory' }).waitFor();
  step('PYTHON_LINK_OPENED');
} finally {
  await browser.close();
  await client.waitForBatchProcessing();
}
