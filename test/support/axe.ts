import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';

/** The WCAG 2.2 AA rules (and what they build on) the status page is held to. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;
/** Best-practice rules held too: one `main` landmark, all content in landmarks, an `h1`, headings in order. */
export const STRUCTURE_RULES = ['landmark-one-main', 'region', 'page-has-heading-one', 'heading-order', 'landmark-unique'] as const;

/** axe-core from npm, read once; evaluated in the page (DevTools evaluation, so the page's CSP, which forbids inline script, stays in force). */
let source: string | undefined;

export interface Violation {
  id: string;
  impact: string | null;
  nodes: { target: string; summary: string }[];
}

/**
 * The page's accessibility violations as axe-core reports them (impact `minor` to `critical`):
 * the WCAG tags and the structure rules. `openAll`: every `<details>` opened first, so what a
 * person taps open is checked too.
 */
export async function axeViolations(page: Page, openAll: boolean): Promise<Violation[]> {
  source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  if (openAll) {
    await page.evaluate(() => {
      const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ open: boolean }> } }).document;
      for (const d of Array.from(doc.querySelectorAll('details'))) d.open = true;
    });
  }
  await page.evaluate(source);
  return page.evaluate(async ({ tags, rules }) => {
    type Result = { violations: { id: string; impact: string | null; nodes: { target: string[]; failureSummary?: string }[] }[] };
    const axe = (globalThis as unknown as { axe: { run(ctx: unknown, options: unknown): Promise<Result> } }).axe;
    const doc = (globalThis as unknown as { document: unknown }).document;
    const runs = [await axe.run(doc, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] }), await axe.run(doc, { runOnly: { type: 'rule', values: rules }, resultTypes: ['violations'] })];
    return runs.flatMap((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary ?? '' })) })));
  }, { tags: [...WCAG_TAGS], rules: [...STRUCTURE_RULES] });
}

/** The violations that fail the page: impact serious or critical, and any structure rule at all. */
export function failing(violations: readonly Violation[]): Violation[] {
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical' || (STRUCTURE_RULES as readonly string[]).includes(v.id));
}
