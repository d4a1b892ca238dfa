import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (apt-get install chromium); playwright-core never downloads a browser here. */
export const CHROMIUM_PATH = process.env.FOLIO_CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];
export const SCREENSHOT_DIR = 'test/e2e/screenshots';

export interface ConsoleBrowser {
  context: BrowserContext;
  page: Page;
  /** Requests the page tried to make to any other origin (blocked): must stay empty. */
  foreignRequests: string[];
  /** Uncaught page errors and console errors (CSP violations among them). */
  pageErrors: string[];
  shot(name: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Headless Chromium with a fresh profile, allowed to reach `origin` only: anything else is aborted
 * and recorded, so a stray CDN reference fails the test instead of silently loading.
 */
export async function openConsoleBrowser(origin: string, viewport = { width: 1280, height: 900 }): Promise<ConsoleBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'folio-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS, viewport });
  const foreignRequests: string[] = [];
  const pageErrors: string[] = [];
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('blob:') || url.startsWith('data:')) return route.continue();
    foreignRequests.push(url);
    return route.abort('blockedbyclient');
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('pageerror', (err) => pageErrors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    // The Try-it probe (POST /v3/pdf and /v3/text, no credentials) expects 401 or 404; Chromium logs those as errors.
    const probe = [`${origin}/v3/pdf`, `${origin}/v3/text`].includes(msg.location().url) && /status of 40[14]/.test(msg.text());
    if (msg.type() === 'error' && !probe) pageErrors.push(`console: ${msg.text()} (${msg.location().url})`);
  });
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return {
    context,
    page,
    foreignRequests,
    pageErrors,
    async shot(name) {
      await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: true, animations: 'disabled' });
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
