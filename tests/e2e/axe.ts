import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

// axe-core's WCAG 2.0, 2.1 and 2.2 A/AA rules on the page as it is now; fails on every critical or
// serious violation (softly: the test goes on to its other pages, and fails at the end), listing
// each rule with the first few elements it found. Moderate and minor findings are returned for a
// report, not failed on. AXE_REPORT=1 prints every page's findings (the counts in a closing note).

export type TAxeFinding = { id: string; impact: string; help: string; nodes: number; targets: string[] };

const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The API reference (/reference) is Scalar's page, not ours: its theme follows the browser's
 * colour scheme and takes our fonts (lib/openapi/reference-page.ts); what its markup still breaks
 * and no setting of it changes is excused there, and only there:
 */
export const REFERENCE_EXCUSED: string[] = [
  'button-name', // two icon-only buttons in its operation panels (a copy and a collapse control) have no name
  'target-size', // its sidebar's group toggles are 18 px, next to their links
];

/** The rules whose outcome depends on the colours alone (what a second theme can change). */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

type TAxeOptions = { excused?: string[]; only?: string[] };

export async function axeFindings(page: Page, { excused = [], only }: TAxeOptions = {}): Promise<TAxeFinding[]> {
  // Violations only: axe otherwise builds a selector for every node each rule passed (every text
  // node, for colour contrast), most of its time on a long page, for results nobody reads here.
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).disableRules(excused);
  const results = await (only ? builder.withRules(only.filter((r) => !excused.includes(r))) : builder.withTags(TAGS)).analyze();
  return results.violations.map((v) => ({
    id: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    nodes: v.nodes.length,
    targets: v.nodes.slice(0, 4).map((n) => n.target.join(' ')),
  }));
}

export async function expectNoSeriousA11yViolations(page: Page, what: string, options: TAxeOptions = {}): Promise<TAxeFinding[]> {
  const started = Date.now();
  const findings = await axeFindings(page, options);
  if (process.env.AXE_REPORT)
    console.log(`axe ${what}: ${findings.map((f) => `${f.id}/${f.impact}x${f.nodes}`).join(' ') || 'clean'} (${Date.now() - started} ms)`);
  const serious = findings.filter((f) => f.impact === 'critical' || f.impact === 'serious');
  expect
    .soft(
      serious.map((f) => `${f.id} (${f.impact}): ${f.help} — ${f.targets.join(' | ')}`),
      `${what}: critical or serious axe violations`,
    )
    .toEqual([]);
  return findings.filter((f) => !serious.includes(f));
}
