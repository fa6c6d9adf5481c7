import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

// axe-core's WCAG 2.1 A/AA rules on the page as it is now; fails on every critical or serious
// violation (softly: the test goes on to its other pages, and fails at the end), listing each rule
// with the first few elements it found. Moderate and minor findings
// are returned for a report, not failed on.

export type TAxeFinding = { id: string; impact: string; help: string; targets: string[] };

export async function axeFindings(page: Page): Promise<TAxeFinding[]> {
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return results.violations.map((v) => ({ id: v.id, impact: v.impact ?? 'unknown', help: v.help, targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ')) }));
}

export async function expectNoSeriousA11yViolations(page: Page, what: string): Promise<TAxeFinding[]> {
  const findings = await axeFindings(page);
  const serious = findings.filter((f) => f.impact === 'critical' || f.impact === 'serious');
  expect.soft(serious.map((f) => `${f.id} (${f.impact}): ${f.help} — ${f.targets.join(' | ')}`), `${what}: critical or serious axe violations`).toEqual([]);
  return findings.filter((f) => !serious.includes(f));
}
