import axe from 'axe-core';
import type { Page } from 'playwright-core';

const IMPACTS = ['minor', 'moderate', 'serious', 'critical'] as const;

/**
 * Accessibility violations reported by axe-core on the current page, of `least` impact or worse:
 * serious and critical by default; `moderate` adds heading order, landmarks and the like.
 */
export async function axeViolations(
  page: Page,
  least: 'moderate' | 'serious' = 'serious',
): Promise<string[]> {
  // A screen still sliding in is still fading in: its contrast is judged once it has arrived.
  await page.evaluate(() =>
    Promise.race([
      Promise.all(
        document
          .getAnimations()
          .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity))
          .map((a) => a.finished.catch(() => undefined)),
      ),
      new Promise((resolve) => setTimeout(resolve, 2000)),
    ]),
  );
  // Evaluated by the test driver: the page's policy forbids inline scripts (as it should).
  await page.evaluate(axe.source);
  const result = await page.evaluate(async () => {
    const inPage = (window as unknown as { axe: typeof axe }).axe;
    return inPage.run(document, { resultTypes: ['violations'] });
  });
  const counted = IMPACTS.slice(IMPACTS.indexOf(least));
  return result.violations
    .filter((v) => counted.includes(v.impact ?? 'minor'))
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
