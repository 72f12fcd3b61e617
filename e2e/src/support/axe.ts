import { readFileSync } from 'node:fs';
import { type Page } from 'playwright-core';

let source: string | undefined;
/** axe-core's browser bundle, from node_modules. */
const axeSource = () => (source ??= readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));

/** What axe reports of one rule that failed, reduced to what a failing test should say. */
interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** The impacts that fail a screen: serious and critical (WCAG A and AA failures a user meets). */
const FAILING = ['serious', 'critical'];

/**
 * Runs axe-core in the page (its bundle from node_modules, not fetched: the tests reach no network
 * beyond this machine) over what the screen shows now, and fails naming each serious or critical
 * violation with its elements. Moderate and minor findings are left to review.
 */
export async function expectNoSeriousA11yViolations(page: Page, screen: string): Promise<void> {
  const injected = await page.evaluate('typeof window.axe');
  // Evaluated rather than added as a <script> tag: the app's Content-Security-Policy (script-src
  // 'self') rightly refuses an inline script, and the check must not need it loosened.
  if (injected === 'undefined') await page.evaluate(axeSource());
  // A string, because this workspace compiles without the DOM's types.
  const violations = await page.evaluate<Violation[]>(`(async () => {
    // Colours still fading (a button just enabled, a dialog opening) are judged once they have
    // settled, not mid-way: a spinner's endless animation is not waited for, nor anything past 3 s.
    const settling = document
      .getAnimations()
      .filter((a) => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
      .map((a) => a.finished.catch(() => undefined));
    await Promise.race([Promise.all(settling), new Promise((resolve) => setTimeout(resolve, 3000))]);
    const result = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
      // Experimental in axe, so off unless asked: a button whose spoken name differs from its text.
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.map(String), failureSummary: n.failureSummary })),
    }));
  })()`);
  const failing = violations.filter((v) => v.impact !== null && FAILING.includes(v.impact));
  if (failing.length === 0) return;
  const said = failing.map(
    (v) =>
      `${v.impact} ${v.id} (${v.help}): ` +
      v.nodes
        .slice(0, 5)
        .map(
          (n) =>
            `${n.target.join(' ')}${n.failureSummary ? ` — ${n.failureSummary.replace(/\s+/g, ' ')}` : ''}`,
        )
        .join('; '),
  );
  throw new Error(
    `"${screen}" has ${failing.length} serious or critical accessibility violations:\n${said.join('\n')}`,
  );
}
