// A headless Chromium page signed in to the console with an API key (as the sign-in form stores it), for the scripts
// that measure pages from outside.
import { chromium } from 'playwright-core';

export async function signedInPage(apiKey) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // The script runs in about:blank too, where there is no session storage to sign in with.
  await context.addInitScript((key) => { if (location.protocol.startsWith('http')) sessionStorage.setItem('console.apiKey', key); }, apiKey);
  return { browser, page: await context.newPage() };
}
