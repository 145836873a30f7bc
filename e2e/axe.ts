import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** Serious or critical accessibility violations reported by axe-core on the current page. */
export async function axeViolations(page: Page): Promise<string[]> {
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
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
