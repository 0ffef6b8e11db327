// A person compares models' evaluation runs, by visible text and labels: the Evaluations page lists the runs (two the
// SDK logged, one the v2 REST routes logged) with their scores, ranks the models on a leaderboard, filters the runs by model, compares them side by side (each scorer per run and the difference),
// narrows the examples to those where the runs disagree, orders them by a scorer's difference and opens one
// prediction's call; the REST-logged run compares with an SDK run over the same examples. Prints one marker per step; screenshots go to the folder in SCREENSHOTS when it is set.
// Usage: node evaluation-pages.mjs <console origin> <API key> <entity> <project>
import { chromium } from 'playwright-core';

const [origin, apiKey, entity, project] = process.argv.slice(2);
const shots = process.env.SCREENSHOTS;
const step = (name) => console.log(`STEP ${name}`);
const shot = async (page, name) => shots && page.screenshot({ path: `${shots}/${name}.png`, fullPage: true });

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
try {
  page.setDefaultTimeout(30000);
  page.on('pageerror', (error) => console.log(`CONSOLE ERROR ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && console.log(`CONSOLE ERROR ${message.text()}`));

  await page.goto(`${origin}/`);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Projects' }).waitFor();
  await page.goto(`${origin}/#/p/${entity}/${project}/calls`);
  await page.getByRole('link', { name: 'Evaluations', exact: true }).click();
  await page.getByRole('heading', { name: 'Evaluations' }).waitFor();
  const runs = page.locator('table.evaluations tbody tr');
  await page.getByText('3 runs').waitFor();
  const carefulRow = page.getByRole('row', { name: /arithmetic-eval careful/ });
  const sloppyRow = page.getByRole('row', { name: /arithmetic-eval sloppy/ });
  await carefulRow.getByText('exact.true_fraction 1', { exact: true }).waitFor();
  await carefulRow.getByRole('cell', { name: '30', exact: true }).waitFor();
  await sloppyRow.getByText('exact.true_fraction 0.333', { exact: true }).waitFor();
  await sloppyRow.getByText('distance.mean 1.333', { exact: true }).waitFor();
  const restRow = page.getByRole('row', { name: /arithmetic-eval rest-model/ });
  await restRow.getByText('exact.true_fraction 0.667', { exact: true }).waitFor();
  await restRow.getByText('distance.mean 0.333', { exact: true }).waitFor();
  await shot(page, 'evaluations');
  step('EVALUATIONS_LISTED');

  // The leaderboard of the dataset (every run's evaluation reads "arithmetic"): by default its first figure, the highest
  // first; then the lowest distance first.
  const board = page.getByRole('region', { name: 'Leaderboard' });
  if (await board.getByLabel('Dataset').inputValue() !== 'arithmetic') throw new Error('the leaderboard is not of the arithmetic dataset');
  await restRow.getByRole('cell', { name: 'arithmetic', exact: true }).waitFor();
  await board.getByRole('row', { name: '1 careful 3', exact: true }).waitFor();
  await board.getByRole('row', { name: '2 rest-model 2', exact: true }).waitFor();
  await board.getByRole('row', { name: '3 sloppy 1', exact: true }).waitFor();
  await board.getByLabel('Ranked by').selectOption('distance.mean');
  await board.getByLabel('Best is').selectOption('asc');
  await board.getByRole('button', { name: 'Rank' }).click();
  await page.getByRole('region', { name: 'Leaderboard' }).getByRole('row', { name: '1 careful 0', exact: true }).waitFor();
  await page.getByRole('region', { name: 'Leaderboard' }).getByRole('row', { name: '2 rest-model 0.333', exact: true }).waitFor();
  await page.getByRole('region', { name: 'Leaderboard' }).getByRole('row', { name: '3 sloppy 1.333', exact: true }).waitFor();
  step('LEADERBOARD');

  await page.getByLabel('Dataset', { exact: true }).first().selectOption('arithmetic');
  await page.getByLabel('Model', { exact: true }).selectOption('sloppy');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('1 run', { exact: true }).waitFor();
  if (await runs.count() !== 1) throw new Error(`the model filter left ${await runs.count()} runs`);
  await page.getByLabel('Model', { exact: true }).selectOption('');
  await page.getByRole('button', { name: 'Apply filters' }).click();
  await page.getByText('3 runs').waitFor();
  step('EVALUATIONS_FILTERED');

  await carefulRow.getByRole('checkbox').check();
  await sloppyRow.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Compare selected' }).click();
  await page.getByRole('heading', { name: 'Compare evaluations' }).waitFor();
  const scores = page.getByRole('region', { name: 'Scores by run' });
  await scores.getByRole('row', { name: /^exact 1 0\.333 -0\.667$/ }).waitFor();
  await scores.getByRole('row', { name: /^distance 0 1\.333 \+1\.333$/ }).waitFor();
  await shot(page, 'evaluations-compare');
  step('EVALUATIONS_COMPARED');

  const examples = page.getByRole('region', { name: 'Examples' });
  await examples.getByRole('heading', { name: 'Examples (3)' }).waitFor();
  await examples.getByLabel('Only where the runs disagree').check();
  await examples.getByLabel('Order').selectOption('distance');
  await examples.getByRole('button', { name: 'Show' }).click();
  await page.getByRole('region', { name: 'Examples' }).getByRole('heading', { name: 'Examples (2)' }).waitFor();
  const firstExample = page.getByRole('region', { name: 'Examples' }).locator('tbody tr').first();
  await firstExample.getByText('"3+3"', { exact: false }).waitFor();
  await shot(page, 'evaluations-disagree');
  step('DISAGREEMENTS_SHOWN');

  await firstExample.getByRole('link', { name: 'Open the call' }).last().click();
  await page.getByRole('heading', { level: 2, name: 'sloppy' }).waitFor();
  step('PREDICTION_OPENED');

  // The run the v2 REST routes logged reads as the SDK's do: its scores beside careful's, its predictions on the
  // same three examples, one of them a disagreement.
  await page.goto(`${origin}/#/p/${entity}/${project}/evaluations`);
  await carefulRow.getByRole('checkbox').check();
  await restRow.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Compare selected' }).click();
  await page.getByRole('heading', { name: 'Compare evaluations' }).waitFor();
  await scores.getByRole('row', { name: /^exact 1 0\.667 -0\.333$/ }).waitFor();
  await scores.getByRole('row', { name: /^distance 0 0\.333 \+0\.333$/ }).waitFor();
  await examples.getByRole('heading', { name: 'Examples (3)' }).waitFor();
  await examples.getByLabel('Only where the runs disagree').check();
  await examples.getByRole('button', { name: 'Show' }).click();
  await page.getByRole('region', { name: 'Examples' }).getByRole('heading', { name: 'Examples (1)' }).waitFor();
  const disagreement = page.getByRole('region', { name: 'Examples' }).locator('tbody tr').first();
  await disagreement.getByText('"3+3"', { exact: false }).waitFor();
  await disagreement.getByText('7', { exact: true }).waitFor();
  await shot(page, 'evaluations-rest-run');
  await disagreement.getByRole('link', { name: 'Open the call' }).last().click();
  await page.getByRole('heading', { level: 2, name: 'rest-model.predict' }).waitFor();
  step('REST_RUN_COMPARED');
} catch (error) {
  await shot(page, 'evaluations-failure');
  throw error;
} finally {
  await browser.close();
}
