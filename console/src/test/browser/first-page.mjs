// Measures what a person waits for on a large project's calls page: from opening its URL (signed in) to
// the first page of rows on screen, and separately to the total. Prints BENCH lines.
// Usage: node first-page.mjs <console origin> <API key> <entity/project> [runs] [sort, e.g. sort=tokens&dir=desc]
import { signedInPage } from './signed-in-page.mjs';

const [origin, apiKey, projectId, runsText = '10', sort = ''] = process.argv.slice(2);
const runs = Number.parseInt(runsText, 10);
const { browser, page } = await signedInPage(apiKey);
try {
  page.setDefaultTimeout(30000);
  const url = `${origin}/#/p/${projectId}/calls${sort ? `?${sort}` : ''}`;
  const order = sort ? ` (${sort})` : ' (default order)';
  const rowsMs = [];
  const totalMs = [];
  // Two warm-up loads: the JVMs' JIT and the browser's module cache, as for a person's second visit.
  for (let run = -2; run < runs; run++) {
    await page.goto('about:blank');
    const began = Date.now();
    await page.goto(url);
    await page.locator('table.calls tbody tr').nth(49).waitFor();
    const rows = Date.now() - began;
    await page.getByText(/^[\d,]+ traces$/).waitFor();
    const total = Date.now() - began;
    if (run >= 0) {
      rowsMs.push(rows);
      totalMs.push(total);
    }
  }
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const worst = (values) => Math.max(...values);
  console.log(`BENCH first page of 50 rows on screen${order}: median ${median(rowsMs)} ms, worst ${worst(rowsMs)} ms over ${runs} loads`);
  console.log(`BENCH total (query_stats) on screen${order}: median ${median(totalMs)} ms, worst ${worst(totalMs)} ms`);
} finally {
  await browser.close();
}
