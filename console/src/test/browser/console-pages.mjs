// Uses the console as a person does, by visible text and labels: signs in, finds the project, sees the
// calls the Weave SDK logged, opens the trace, reads a child's inputs and exception, adds a reaction,
// browses the dataset's rows, reloads, signs out. Prints one marker per step; screenshots go to the
// folder in SCREENSHOTS when it is set.
// Usage: node console-pages.mjs <console origin> <API key> <entity> <project>
import { chromium } from 'playwright-core';

const [origin, apiKey, entity, project] = process.argv.slice(2);
const shots = process.env.SCREENSHOTS;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox'],
});
const step = (name) => console.log(`STEP ${name}`);
const shot = async (page, name) => shots && page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });

/** Clicks a column's header until the table shows it sorted that way (the first click sorts descending). */
async function sortBy(label, direction) {
  await page.getByRole('button', { name: label }).click();
  await page.locator(`th[aria-sort="${direction}"]`, { hasText: label }).waitFor();
}

/** The calls table's column under that header, top to bottom, is exactly these texts. */
async function expectColumn(label, expected) {
  const headers = await page.locator('table.calls thead th').allTextContents();
  const column = headers.findIndex((text) => text.startsWith(label)) + 1;
  const shown = await page.locator(`table.calls tbody tr td:nth-child(${column})`).allTextContents();
  if (JSON.stringify(shown) !== JSON.stringify(expected)) {
    throw new Error(`the ${label} column shows ${JSON.stringify(shown)}, not ${JSON.stringify(expected)}`);
  }
}
try {
  page.setDefaultTimeout(20000);
  page.on('pageerror', (error) => console.log(`PAGE ERROR ${error.message}`));
  page.on('response', async (response) => {
    if (response.status() >= 400) console.log(`HTTP ${response.status()} ${response.url()} ${await response.text()}`);
  });

  await page.goto(`${origin}/`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  step('SIGNED_IN');

  const entitySection = page.getByRole('region', { name: entity });
  await entitySection.getByRole('link', { name: project, exact: true }).click();
  step('PROJECT_OPENED');

  const row = page.getByRole('row', { name: /answerQuestion/ });
  await row.waitFor();
  // The SDK's trace and the thread's two turns.
  await page.getByText(/^3 traces$/).waitFor();
  await shot(page, 'calls');
  step('CALLS_SEEN');

  // No match first, so that the matching search's row is the new answer, not the old table.
  await page.getByLabel('Search').fill('no such text anywhere');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('No call matches these filters.').waitFor();
  await page.getByLabel('Search').fill('capital of France');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByRole('row', { name: /answerQuestion/ }).waitFor();
  await page.getByText(/^1 trace$/).waitFor();
  // Text only inside the root's inputs object ({question: ...}), in other case: the search reads the JSON.
  await page.getByLabel('Search').fill('no such text anywhere');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('No call matches these filters.').waitFor();
  await page.getByLabel('Search').fill('WHAT IS THE capital');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByRole('row', { name: /answerQuestion/ }).waitFor();
  await page.getByText(/^1 trace$/).waitFor();
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByText(/^3 traces$/).waitFor();
  await page.getByRole('button', { name: 'Latency' }).click();
  await page.locator('th[aria-sort="descending"]', { hasText: 'Latency' }).waitFor();
  // The longest trace first: the thread's 4 s turn.
  await page.locator('table.calls tbody tr').first().getByText('4.00 s').waitFor();
  step('FILTERED');

  // Tokens and cost sort on the server (the first turn: 500 cheap tokens; the SDK's trace: 21 dearer ones;
  // the second turn: no usage, last either way), and the sort stays in the URL over a reload.
  await sortBy('Tokens', 'descending');
  await expectColumn('Tokens', ['500', '21', '']);
  await sortBy('Tokens', 'ascending');
  await expectColumn('Tokens', ['21', '500', '']);
  await page.reload();
  await page.locator('th[aria-sort="ascending"]', { hasText: 'Tokens' }).waitFor();
  await expectColumn('Tokens', ['21', '500', '']);
  await sortBy('Cost', 'descending');
  await expectColumn('Cost', ['$0.03', '$0.0060', '']);
  await sortBy('Cost', 'ascending');
  await expectColumn('Cost', ['$0.0060', '$0.03', '']);
  await shot(page, 'calls-by-cost');
  step('SORTED_BY_USAGE');

  await page.getByRole('row', { name: /answerQuestion/ }).getByRole('link', { name: 'answerQuestion' }).click();
  const tree = page.getByRole('navigation', { name: 'Calls of the trace' });
  await tree.getByRole('link', { name: /lookupFacts/ }).click();
  await page.getByRole('heading', { level: 2, name: 'lookupFacts' }).waitFor();
  await page.getByRole('region', { name: 'Inputs' }).getByText('What is the capital of France?').waitFor();
  await page.getByRole('region', { name: 'Exception' }).getByText(/the fact store has nothing/).waitFor();
  step('CHILD_READ');

  await page.getByRole('button', { name: 'React with thumbs up' }).click();
  await page.getByRole('region', { name: 'Feedback' }).getByText(':thumbs_up:').waitFor();
  await shot(page, 'trace');
  step('REACTED');

  await tree.getByRole('link', { name: /answerQuestion/ }).click();
  await page.getByRole('heading', { level: 2, name: 'answerQuestion' }).waitFor();
  await page.getByLabel('Note').fill('Checked by hand: the fallback answered.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByRole('region', { name: 'Feedback' }).getByText('Checked by hand: the fallback answered.').waitFor();
  step('NOTED');

  await tree.getByRole('link', { name: /chatModel/ }).click();
  await page.getByRole('region', { name: 'Chat' }).getByText('The capital of France is Paris.').waitFor();
  await page.getByRole('region', { name: 'Usage and costs' }).getByRole('cell', { name: 'gpt-4o-mini' }).waitFor();
  step('CHAT_READ');

  // Feedback filters apply to the trace roots: the note is on the root, the reaction on a child.
  await page.getByRole('link', { name: 'Calls', exact: true }).click();
  await page.getByText(/^3 traces$/).waitFor();
  await page.getByLabel('Feedback').selectOption({ label: 'Has a reaction' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('No call matches these filters.').waitFor();
  await page.getByLabel('Feedback').selectOption({ label: 'Has a note' });
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByRole('row', { name: /answerQuestion/ }).waitFor();
  await page.getByText(/^1 trace$/).waitFor();
  step('FEEDBACK_FILTERED');

  await page.getByRole('link', { name: 'Objects', exact: true }).click();
  await page.getByRole('link', { name: 'capitals', exact: true }).click();
  const rows = page.getByRole('region', { name: 'Value' });
  await rows.getByRole('cell', { name: 'Nairobi' }).waitFor();
  await rows.getByText('3 rows').waitFor();
  await shot(page, 'dataset');
  step('DATASET_ROWS');

  await page.reload();
  await page.getByRole('region', { name: 'Value' }).getByRole('cell', { name: 'Tokyo' }).waitFor();
  step('RELOADED');

  await page.getByRole('link', { name: 'Threads', exact: true }).click();
  const thread = page.getByRole('row', { name: /support-chat/ });
  await thread.getByRole('cell', { name: '2', exact: true }).waitFor();
  await thread.getByRole('link', { name: 'support-chat' }).click();
  await page.getByRole('link', { name: 'Turn 1: chatTurn' }).waitFor();
  await page.getByRole('link', { name: 'Turn 2: chatTurn' }).waitFor();
  await shot(page, 'thread');
  step('THREAD_TURNS');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('API key').waitFor();
  step('SIGNED_OUT');
} catch (error) {
  await shot(page, 'failure');
  throw error;
} finally {
  await browser.close();
}
