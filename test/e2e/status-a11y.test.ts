import { chromium, type Browser } from 'playwright-core';
import { axeViolations, failing } from '../support/axe';
import { requireBinary } from '../support/binaries';
import { serveState, type ServedState, type StatusState } from '../support/status-states';

jest.setTimeout(120_000);

// Fails the suite with a clear message when Debian's chromium is missing (never a silent skip).
const CHROMIUM = requireBinary(['chromium', 'chromium-browser'], 'chromium');

/**
 * The status page read by axe-core (WCAG 2.2 AA) in headless Chromium, calm and in a storm
 * (hundreds of networks closed with hostile messages, firing alerts, the notices banner), at
 * desktop and phone widths, as loaded and with every section and card opened.
 */
let browser: Browser;
const served = new Map<StatusState, ServedState>();

beforeAll(async () => {
  for (const s of ['calm', 'storm'] as const) served.set(s, await serveState(s));
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
});

afterAll(async () => {
  await browser?.close();
  for (const s of served.values()) await s.close();
});

describe.each([
  { state: 'calm' as const, width: 1280, height: 900, touch: false },
  { state: 'calm' as const, width: 390, height: 844, touch: true },
  { state: 'storm' as const, width: 1280, height: 900, touch: false },
  { state: 'storm' as const, width: 390, height: 844, touch: true },
])('the status page, $state, at $width px', ({ state, width, height, touch }) => {
  it.each([false, true])('has no serious or critical accessibility violation (every section opened: %s)', async (openAll) => {
    const page = await browser.newPage({ viewport: { width, height }, hasTouch: touch, isMobile: touch });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    try {
      await page.goto(`${served.get(state)!.url}/`);
      expect(await page.locator('main').count()).toBe(1);
      const all = await axeViolations(page, openAll);
      expect(failing(all)).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
