// Measures what a person waits for on a large project's pages: from opening a page's URL (signed in) to its first
// content on screen (an element that only the loaded data draws). Prints a BENCH line per page.
// Usage: node first-content.mjs <console origin> <API key> <runs> <target ms> (<label> <#fragment> <CSS selector>)...
import { signedInPage } from './signed-in-page.mjs';

const [origin, apiKey, runsText, targetText, ...pages] = process.argv.slice(2);
const runs = Number.parseInt(runsText, 10);
const target = Number.parseInt(targetText, 10);
const { browser, page } = await signedInPage(apiKey);
try {
  page.setDefaultTimeout(60000);
  page.on('pageerror', (error) => console.log(`PAGE ERROR ${error.message}`));
  for (let at = 0; at + 2 < pages.length; at += 3) {
    const [label, fragment, selector] = pages.slice(at, at + 3);
    const times = [];
    // Two warm-up loads: the JVMs' JIT and the browser's module cache, as for a person's second visit.
    for (let run = -2; run < runs; run++) {
      await page.goto('about:blank');
      const began = Date.now();
      await page.goto(`${origin}/${fragment}`);
      await page.locator(selector).first().waitFor();
      if (run >= 0) times.push(Date.now() - began);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(`BENCH ${label}: first content median ${median} ms, worst ${sorted[sorted.length - 1]} ms over ${runs} loads`
      + ` (target ${target} ms: ${median <= target ? 'met' : 'MISSED'})`);
  }
} finally {
  await browser.close();
}
