// Drives the admin page like a team admin: sign in with an API key, store a secret, add a webhook and test
// it, create an automation, then watch its delivery history until the delivery of the event that
// AdminPageBrowserTest publishes shows up as SUCCEEDED.
// Usage: node admin-page.mjs <service base URL> <API key> <team> <receiver URL>
import { chromium } from 'playwright-core';

const [baseUrl, apiKey, team, receiverUrl] = process.argv.slice(2);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(20000);
  await page.goto(baseUrl + '/admin/');
  await page.fill('#api-key', apiKey);
  await page.fill('#entity', team);
  await page.click('#login button');
  await page.waitForSelector('#status:has-text("Signed in to")');

  await page.fill('#secret-name', 'SIGNING');
  await page.fill('#secret-value', 'browser-signing-secret');
  await page.click('#secret-form button');
  await page.waitForSelector('#secret-rows td:has-text("SIGNING")');

  await page.fill('#webhook-name', 'browser hook');
  await page.fill('#webhook-url', receiverUrl);
  await page.fill('#webhook-secret', 'SIGNING');
  await page.click('#webhook-form button');
  const hookRow = page.locator('#webhook-rows tr', { hasText: 'browser hook' });
  await hookRow.waitFor();
  await hookRow.locator('button', { hasText: 'Test' }).click();
  await page.click('#test-send');
  await page.waitForSelector('#test-result:has-text("HTTP 200")');

  await page.fill('#automation-name', 'browser automation');
  await page.selectOption('#automation-scope-type', 'PROJECT');
  await page.fill('#automation-project', 'llm');
  await page.selectOption('#automation-event', 'LINK_ARTIFACT');
  await page.click('#automation-form button');
  const automationRow = page.locator('#automation-rows tr', { hasText: 'browser automation' });
  await automationRow.waitFor();
  console.log('AUTOMATION_CREATED');

  await automationRow.locator('button', { hasText: 'History' }).click();
  const deadline = Date.now() + 30000;
  while (!(await page.locator('#delivery-rows .status-SUCCEEDED').count())) {
    if (Date.now() > deadline) throw new Error('no SUCCEEDED delivery appeared in the history');
    await page.waitForTimeout(500);
    await page.click('#history-refresh');
  }
  console.log('DELIVERY_SEEN');
} finally {
  await browser.close();
}
