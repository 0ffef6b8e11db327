// Uses the console as a person does, by visible text and labels: signs in, finds the project, sees the
// calls the Weave SDK logged, filters by any op the calls ran, opens the trace, reads a child's inputs and
// exception, adds a reaction (its name shows where emoji do not draw), sets and removes a price beside the
// default prices, browses the dataset's rows, reads a traceback, reloads, signs out; no page logs an error. Prints one marker per step; screenshots go to the
// folder in SCREENSHOTS when it is set.
// Usage: node console-pages.mjs <console origin> <API key> <entity> <project>
import fs from 'node:fs';
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
  page.on('console', (message) => message.type() === 'error' && console.log(`CONSOLE ERROR ${message.text()}`));
  page.on('response', async (response) => {
    if (response.status() >= 400) console.log(`HTTP ${response.status()} ${response.url()} ${await response.text()}`);
  });

  await page.goto(`${origin}/`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  step('SIGNED_IN');
  const icon = await page.request.get(`${origin}/favicon.ico`);
  if (icon.status() !== 200 || !icon.headers()['content-type']?.startsWith('image/')) {
    throw new Error(`/favicon.ico answered ${icon.status()} ${icon.headers()['content-type']}`);
  }
  step('FAVICON');

  const entitySection = page.getByRole('region', { name: entity });
  await entitySection.getByRole('link', { name: project, exact: true }).click();
  step('PROJECT_OPENED');

  const row = page.getByRole('row', { name: /answerQuestion/ });
  await row.waitFor();
  // The SDK's trace and the thread's two turns.
  await page.getByText(/^3 traces$/).waitFor();
  await shot(page, 'calls');
  step('CALLS_SEEN');

  // The Op filter offers every op the calls ran: the SDK's published ops, chatTurn that only the calls name, and
  // a child's plain op name; picking one lists its calls at any depth.
  const opFilter = page.getByLabel('Op');
  await opFilter.locator('option', { hasText: 'openai.chat.completions.create' }).waitFor({ state: 'attached' });
  const ops = await opFilter.locator('option').allTextContents();
  const expectedOps = ['Any op', 'answerQuestion', 'chatModel', 'chatTurn', 'lookupFacts', 'openai.chat.completions.create'];
  if (JSON.stringify(ops) !== JSON.stringify(expectedOps)) throw new Error(`the Op filter offers ${JSON.stringify(ops)}`);
  await opFilter.selectOption('openai.chat.completions.create');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText(/^1 call$/).waitFor();
  await page.getByRole('row', { name: /openai\.chat\.completions\.create/ }).waitFor();
  await opFilter.selectOption('chatTurn');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText(/^2 calls$/).waitFor();
  await shot(page, 'calls-op-filter');
  await page.getByRole('button', { name: 'Clear' }).click();
  await page.getByText(/^3 traces$/).waitFor();
  step('OPS_FILTERED');

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

  // Where no emoji font draws the glyphs, the reactions show their names; where one does, the glyphs.
  const reactions = page.getByRole('group', { name: 'Add a reaction' });
  const detected = await page.evaluate(() => document.documentElement.dataset.emoji);
  console.log(`EMOJI ${detected}`);
  await page.evaluate(() => { document.documentElement.dataset.emoji = 'text'; });
  await reactions.getByText('thumbs up', { exact: true }).waitFor();
  await shot(page, 'reactions-as-text');
  await page.evaluate(() => { document.documentElement.dataset.emoji = 'glyphs'; });
  await reactions.getByText('thumbs up', { exact: true }).waitFor({ state: 'hidden' });
  await page.evaluate((answer) => { document.documentElement.dataset.emoji = answer; }, detected);
  if (await reactions.getByRole('button').first().getAttribute('title') !== 'React with thumbs up') throw new Error('no title');
  step('REACTIONS_FALL_BACK');

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

  // Prices: the project's own per million tokens, the dated default list prices, one set and removed.
  await page.getByRole('link', { name: 'Prices', exact: true }).click();
  const own = page.getByRole('region', { name: 'This project\'s prices' });
  const defaults = page.getByRole('region', { name: 'Default prices' });
  const ownMini = own.getByRole('row', { name: /gpt-4o-mini/ });
  await ownMini.getByRole('cell', { name: '$1000', exact: true }).waitFor();
  await ownMini.getByRole('cell', { name: '$2000', exact: true }).waitFor();
  await defaults.getByText(/^List prices as of \d{4}-\d{2}-\d{2}\. Source: .*openai\.com/).waitFor();
  await defaults.getByRole('row', { name: /gpt-4o-mini .*this project sets its own/ }).waitFor();
  await defaults.getByRole('row', { name: /^claude-3-5-haiku-20241022 / }).getByRole('cell', { name: 'anthropic' }).waitFor();
  await page.getByLabel('Model (LLM id as in usage)').fill('story-finetune');
  await page.getByLabel('Prompt, USD / 1M tokens').fill('3');
  await page.getByLabel('Completion, USD / 1M tokens').fill('12.5');
  await page.getByLabel('Effective from (UTC)').fill('2026-01-01');
  await page.getByRole('button', { name: 'Set price' }).click();
  await page.getByText('The price of story-finetune is set.').waitFor();
  const added = own.getByRole('row', { name: /story-finetune/ });
  await added.getByRole('cell', { name: '$12.5', exact: true }).waitFor();
  await shot(page, 'prices');
  step('PRICE_SET');
  await page.getByRole('button', { name: 'Remove the price of story-finetune' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await page.getByText('The price of story-finetune is removed.').waitFor();
  await added.waitFor({ state: 'detached' });
  step('PRICE_REMOVED');

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
  // Read as a conversation: what was said in each turn, what it answered, and the second turn's failure.
  const conversation = page.getByRole('list', { name: 'Conversation' });
  await conversation.locator('li.chat-user .chat-text', { hasText: 'Hello' }).waitFor();
  await conversation.locator('li.chat-assistant .chat-text', { hasText: /^ok$/ }).waitFor();
  await conversation.locator('li.chat-user .chat-text', { hasText: 'And tomorrow?' }).waitFor();
  await conversation.locator('li.chat-error .chat-text', { hasText: 'TimeoutError: the model did not answer within 30 s' }).waitFor();
  await shot(page, 'thread');
  step('THREAD_TURNS');

  // A Python SDK exception (JSON with type, message and traceback) shows whole, as a traceback.
  await page.getByRole('link', { name: 'Turn 2: chatTurn' }).click();
  const exception = page.getByRole('region', { name: 'Exception' });
  await exception.getByText('TimeoutError: the model did not answer within 30 s').waitFor();
  const traceback = await exception.locator('pre').textContent();
  const expectedTraceback = ['Traceback (most recent call last):', '  File "support_bot.py", line 42, in answer_turn',
    '    reply = model.answer(message)', '  File "model.py", line 7, in answer',
    '    raise TimeoutError("the model did not answer within 30 s")', 'TimeoutError: the model did not answer within 30 s'].join('\n');
  if (traceback !== expectedTraceback) throw new Error(`the exception reads ${JSON.stringify(traceback)}`);
  await shot(page, 'traceback');
  step('TRACEBACK_READ');

  // The dashboard: the last 24 hours hold the SDK's one trace; by op, its failed child shows its error, and a
  // totals row opens that op's calls in the range.
  await page.getByRole('link', { name: 'Dashboard', exact: true }).click();
  const totals = page.getByRole('region', { name: 'Totals' });
  await totals.getByRole('row', { name: /^traces 1 0 / }).waitFor();
  await page.getByRole('img', { name: 'Calls (traces) over the last 24 hours' }).waitFor();
  await page.getByRole('img', { name: 'Latency (traces) over the last 24 hours' }).waitFor();
  await page.getByRole('img', { name: 'Tokens by model over the last 24 hours' }).waitFor();
  await page.getByRole('img', { name: 'Cost by model over the last 24 hours' }).waitFor();
  // The SDK trace's 21 gpt-4o-mini tokens once (its root holds them), at the prices set for this project: $0.028.
  await page.getByText(/\$0\.03 in this range\.$/).waitFor();
  await page.getByLabel('Show', { exact: true }).selectOption('op');
  await page.getByRole('button', { name: 'Show', exact: true }).click();
  await totals.getByRole('row', { name: /^lookupFacts 1 1 / }).waitFor();
  await totals.getByRole('row', { name: /^answerQuestion 1 0 / }).waitFor();
  await page.getByRole('img', { name: 'Errors (by op) over the last 24 hours' }).waitFor();
  await shot(page, 'dashboard');
  await totals.getByRole('row', { name: /^lookupFacts/ }).getByRole('link', { name: 'Open the calls' }).click();
  await page.getByRole('heading', { name: 'Calls' }).waitFor();
  await page.getByRole('row', { name: /lookupFacts/ }).getByText('Error').waitFor();
  step('DASHBOARD');

  // The calls table as a workbench: two turns compared, a call added to the dataset as a new version, calls exported.
  await page.goto(`${origin}/#/p/${entity}/${project}/calls`);
  const turnRows = page.getByRole('row', { name: /chatTurn/ });
  await turnRows.nth(1).waitFor();
  await turnRows.nth(0).getByRole('checkbox').check();
  await turnRows.nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Compare', exact: true }).click();
  await page.getByRole('heading', { name: 'Compare calls' }).waitFor();
  await page.getByLabel('Differences').getByText('inputs.message').waitFor();
  if ((await page.getByLabel('Differences').textContent()) !== 'Differ in inputs.message') {
    throw new Error(`the comparison reads ${await page.getByLabel('Differences').textContent()}`);
  }
  await page.locator('.side-by-side').getByText('And tomorrow?').waitFor();
  await shot(page, 'calls-compared');
  step('CALLS_COMPARED');

  await page.goBack();
  const questionRow = page.getByRole('row', { name: /answerQuestion/ });
  await questionRow.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Add to dataset…' }).click();
  const datasetForm = page.getByRole('region', { name: 'Add the selected calls to a dataset' });
  await datasetForm.getByLabel('Dataset').fill('capitals');
  await datasetForm.getByRole('button', { name: 'Add rows' }).click();
  await datasetForm.getByText('capitals has a new version with 4 rows.').waitFor();
  await datasetForm.getByRole('link', { name: 'Open the dataset' }).click();
  await page.getByText(/^4 rows$/).waitFor();
  await page.getByRole('cell', { name: 'What is the capital of France?' }).waitFor();
  await page.getByRole('cell', { name: 'Nairobi' }).waitFor();
  step('ADDED_TO_DATASET');

  await page.goBack();
  await questionRow.getByRole('checkbox').check();
  for (const [label, check] of [['Export JSONL', (text) => JSON.parse(text.trim()).inputs.question === 'What is the capital of France?'],
    ['Export CSV', (text) => text.startsWith('id,op,display_name,trace_id,started_at,ended_at,status,latency_ms,inputs,output,exception\r\n')
      && text.includes('answerQuestion') && text.includes('"{""question"":""What is the capital of France?""}"')]]) {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label }).click()]);
    const text = fs.readFileSync(await download.path(), 'utf8');
    if (!check(text)) throw new Error(`${label} wrote ${text.slice(0, 300)}`);
  }
  step('EXPORTED');

  // Columns: the picker offers the calls' fields and their feedback; two inputs and the notes are added, the name and
  // the user taken away; a chosen field sorts on the server (calls without it last).
  await page.goto(`${origin}/#/p/${entity}/${project}/calls`);
  await page.getByRole('row', { name: /answerQuestion/ }).waitFor();
  await page.getByRole('button', { name: 'Columns…' }).click();
  const picker = page.getByRole('region', { name: 'Columns' });
  await picker.getByLabel('inputs.message').check();
  await picker.getByLabel('inputs.question').check();
  await picker.getByLabel('Notes').check();
  await picker.getByLabel('Name', { exact: true }).uncheck();
  await picker.getByLabel('User', { exact: true }).uncheck();
  await shot(page, 'calls-columns');
  await picker.getByRole('button', { name: 'Apply columns' }).click();
  await page.locator('table.calls thead th', { hasText: 'inputs.question' }).waitFor();
  const headers = (await page.locator('table.calls thead th').allTextContents()).slice(1).map((text) => text.replace(/ [▲▼]$/, ''));
  if (JSON.stringify(headers) !== JSON.stringify(['Op', 'Status', 'Started', 'Latency', 'Tokens', 'Cost', 'inputs.message', 'inputs.question', 'Notes'])) {
    throw new Error(`the table's columns are ${JSON.stringify(headers)}`);
  }
  await expectColumn('inputs.question', ['What is the capital of France?', '', '']);
  await expectColumn('Notes', ['Checked by hand: the fallback answered.', '', '']);
  await sortBy('inputs.message', 'descending');
  await expectColumn('inputs.message', ['Hello', 'And tomorrow?', '']);
  await sortBy('inputs.message', 'ascending');
  await expectColumn('inputs.message', ['And tomorrow?', 'Hello', '']);
  step('COLUMNS_CHOSEN');

  // With columns chosen, a dataset's rows are made of them.
  await page.getByRole('row', { name: /chatTurn/ }).nth(0).getByRole('checkbox').check();
  await page.getByRole('row', { name: /chatTurn/ }).nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Add to dataset…' }).click();
  const turnsForm = page.getByRole('region', { name: 'Add the selected calls to a dataset' });
  await turnsForm.getByText('Each call becomes a row of the table\'s chosen columns: message, question, Notes.', { exact: false }).waitFor();
  await turnsForm.getByLabel('Dataset').fill('turns');
  await turnsForm.getByRole('button', { name: 'Add rows' }).click();
  await turnsForm.getByText('turns has a new version with 2 rows.').waitFor();
  const api = (path, data) => page.request.post(`${origin}${path}`, { headers: { Authorization: `Bearer ${apiKey}` }, data })
    .then((response) => response.json());
  const { objs: [turns] } = await api('/objs/query', { project_id: `${entity}/${project}`, filter: { object_ids: ['turns'], latest_only: true } });
  const { rows: turnRowsStored } = await api('/table/query', { project_id: `${entity}/${project}`, digest: turns.val.rows.split('/table/')[1] });
  const shownRows = turnRowsStored.map(({ val }) => [Object.keys(val).sort().join(','), val.message, val.question, val.Notes]);
  if (JSON.stringify(shownRows) !== JSON.stringify([['Notes,message,question', 'And tomorrow?', null, null],
    ['Notes,message,question', 'Hello', null, null]])) {
    throw new Error(`the dataset's rows are ${JSON.stringify(turnRowsStored)}`);
  }
  step('DATASET_FROM_COLUMNS');

  // Saved views: the turns before June, with these columns and this order, saved under a name as a Weave SavedView,
  // listed above the table, opened again by its URL alone, then deleted.
  await page.getByLabel('Started before').fill('2026-06-01T00:00');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText(/^2 traces$/).waitFor();
  await page.getByLabel('Save this view as').fill('turns before June');
  await page.getByRole('button', { name: 'Save view' }).click();
  const views = page.getByRole('navigation', { name: 'Saved views' });
  await views.locator('a[aria-current="page"]', { hasText: 'turns before June' }).waitFor();
  await page.getByRole('heading', { name: 'Calls: turns before June' }).waitFor();
  const stored = await page.request.post(`${origin}/objs/query`, { headers: { Authorization: `Bearer ${apiKey}` },
    data: { project_id: `${entity}/${project}`, filter: { base_object_classes: ['SavedView'], latest_only: true } } });
  const [savedView] = (await stored.json()).objs;
  const definition = savedView?.val?.definition;
  if (savedView?.object_id !== 'turns-before-June' || savedView.val.view_type !== 'traces' || savedView.val.label !== 'turns before June'
    || definition.sort_by?.length !== 1 || definition.sort_by[0].field !== 'inputs.message' || definition.sort_by[0].direction !== 'asc'
    || !JSON.stringify(definition.columns).includes('{"path":["inputs","message"]}')
    || !JSON.stringify(definition.query).includes('{"$lt":[{"$getField":"started_at"},{"$literal":"2026-06-01T00:00:00.000Z"}]}')
    || definition.filter?.trace_roots_only !== true) {
    throw new Error(`the view is stored as ${JSON.stringify(savedView)}`);
  }
  await views.getByRole('link', { name: 'All calls' }).click();
  await page.getByText(/^3 traces$/).waitFor();
  await page.locator('table.calls thead th', { hasText: 'User' }).waitFor();
  const shared = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await shared.addInitScript((key) => sessionStorage.setItem('console.apiKey', key), apiKey);
  await shared.goto(`${origin}/#/p/${entity}/${project}/calls?view=turns-before-June`);
  await shared.getByRole('heading', { name: 'Calls: turns before June' }).waitFor();
  await shared.getByText(/^2 traces$/).waitFor();
  await shared.locator('th[aria-sort="ascending"]', { hasText: 'inputs.message' }).waitFor();
  if (await shared.getByLabel('Started before').inputValue() !== '2026-06-01T00:00') throw new Error('the view lost its filter');
  const sharedColumn = await shared.locator('table.calls tbody tr td:nth-child(8)').allTextContents();
  if (JSON.stringify(sharedColumn) !== '["And tomorrow?","Hello"]') throw new Error(`the shared view shows ${JSON.stringify(sharedColumn)}`);
  await shot(shared, 'calls-saved-view');
  await shared.close();
  await views.getByRole('link', { name: 'turns before June' }).click();
  await page.getByRole('heading', { name: 'Calls: turns before June' }).waitFor();
  await page.getByRole('button', { name: 'Delete view' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Delete view' }).click();
  await page.getByRole('heading', { name: 'Calls', exact: true }).waitFor();
  await views.getByRole('link', { name: 'All calls' }).waitFor();
  if (await views.getByRole('link', { name: 'turns before June' }).count() !== 0) throw new Error('the view was not deleted');
  step('VIEW_SAVED');

  // An annotation queue: made from the two turns ticked in the calls table, with the project's "correctness"
  // question, then worked through by keys and clicks: the first gets a 👍 and a 4, the second is skipped.
  await page.getByRole('link', { name: 'Queues', exact: true }).click();
  await page.getByText('No queue yet.', { exact: false }).waitFor();
  await page.goto(`${origin}/#/p/${entity}/${project}/calls`);
  await page.getByRole('row', { name: /chatTurn/ }).nth(1).waitFor();
  await page.getByRole('row', { name: /chatTurn/ }).nth(0).getByRole('checkbox').check();
  await page.getByRole('row', { name: /chatTurn/ }).nth(1).getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Add to queue…' }).click();
  const queuePanel = page.getByRole('region', { name: 'Add the selected calls to a queue' });
  await queuePanel.getByLabel('Queue').selectOption({ label: 'A new queue…' });
  await queuePanel.getByLabel('Name').fill('review');
  await queuePanel.getByLabel('correctness').check();
  await queuePanel.getByRole('button', { name: 'Add to queue' }).click();
  await queuePanel.getByText('2 added (0 already there).').waitFor();
  await queuePanel.getByRole('link', { name: 'Work through the queue' }).click();
  await page.getByText('0 of 2 done').waitFor();
  await page.getByRole('region', { name: 'Item' }).getByRole('heading', { name: /^Item 1: chatTurn/ }).waitFor();
  await page.keyboard.press('1');
  await page.getByText('👍 chosen').waitFor();
  await page.getByLabel('correctness').fill('4');
  await page.getByRole('button', { name: 'Done', exact: true }).click();
  await page.getByText('1 of 2 done').waitFor();
  await page.getByRole('region', { name: 'Item' }).getByRole('heading', { name: /^Item 2: chatTurn/ }).waitFor();
  await shot(page, 'queue-item');
  await page.keyboard.press('s');
  await page.getByText('Every item of this queue is done.').waitFor();
  await page.getByText('2 of 2 done').waitFor();
  await page.getByRole('region', { name: 'Progress' }).getByText(`${entity} 2`).waitFor();
  step('QUEUE_WORKED');

  // Labels and versions: "production" set on the dataset's new version, then moved to the first; a tag added and
  // removed; the new version's changes from the first (its rows).
  await page.goto(`${origin}/#/p/${entity}/${project}/objects/capitals`);
  const labels = page.getByRole('region', { name: 'Aliases and tags' });
  await labels.getByLabel('Name').fill('production');
  await labels.getByRole('button', { name: 'Add' }).click();
  await page.getByRole('button', { name: 'Remove the alias production' }).waitFor();
  await page.getByLabel('Compare with').selectOption({ index: 1 });
  const changes = page.getByRole('region', { name: 'Differences' });
  await changes.getByRole('heading', { name: 'Changes from v0 to v1' }).waitFor();
  await changes.getByRole('row', { name: /^rows weave:\/\/\// }).waitFor();
  await page.getByRole('region', { name: 'Versions' }).getByRole('link', { name: /^v0/ }).click();
  await page.getByRole('heading', { name: /^v0 / }).waitFor();
  await page.getByRole('region', { name: 'Aliases and tags' }).getByLabel('Name').fill('production');
  await page.getByRole('region', { name: 'Aliases and tags' }).getByRole('button', { name: 'Add' }).click();
  await page.getByRole('button', { name: 'Remove the alias production' }).waitFor();
  const versionLinks = page.getByRole('region', { name: 'Versions' }).getByRole('link');
  await versionLinks.filter({ hasText: /^v0production/ }).waitFor();
  if (await versionLinks.filter({ hasText: /^v1latest production/ }).count() !== 0) throw new Error('production stayed on v1');
  await page.getByRole('region', { name: 'Aliases and tags' }).getByLabel('Name').fill('reviewed');
  await page.getByRole('region', { name: 'Aliases and tags' }).getByLabel('Kind').selectOption('tag');
  await page.getByRole('region', { name: 'Aliases and tags' }).getByRole('button', { name: 'Add' }).click();
  // The page renders anew after a change: once the tag shows, mark the section, and read the one that replaces it.
  await page.getByRole('button', { name: 'Remove the tag reviewed' }).waitFor();
  await page.locator('section[aria-label="Aliases and tags"]').evaluate((section) => { section.dataset.stale = 'yes'; });
  await page.getByRole('button', { name: 'Remove the tag reviewed' }).click();
  const renewed = page.locator('section[aria-label="Aliases and tags"]:not([data-stale])');
  await renewed.getByRole('button', { name: 'Remove the alias production' }).waitFor();
  if (await renewed.getByRole('button', { name: 'Remove the tag reviewed' }).count() !== 0) throw new Error('the tag was not removed');
  await page.getByText('Loading the value…').waitFor({ state: 'detached' });
  await shot(page, 'object-labels');
  step('LABELS_AND_VERSIONS');

  // A prompt object reads as its messages.
  await page.goto(`${origin}/#/p/${entity}/${project}/objects/support-prompt`);
  const prompt = page.getByRole('region', { name: 'Prompt' });
  await prompt.locator('li.chat-system .chat-text', { hasText: 'You answer with capitals only.' }).waitFor();
  await prompt.locator('li.chat-user .chat-text', { hasText: 'What is the capital of {country}?' }).waitFor();
  step('PROMPT_READ');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('API key').waitFor();
  step('SIGNED_OUT');
} catch (error) {
  await shot(page, 'failure');
  throw error;
} finally {
  await browser.close();
}
