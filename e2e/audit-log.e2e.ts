// The staff area: the Analytics chart passes axe.
import { describe, expect } from 'vitest';
import { axeViolations } from './axe';
import { desktop, phone } from './chromium';
import { it, test } from './fixtures';
import { openAdmin, screenshot, toast } from './screens';

test.override('contextOptions', { reducedMotion: 'reduce' });

describe('the audit log and analytics', () => {
  it('the Analytics chart has no serious accessibility violation, on a desktop and a phone', async ({
    people,
    admin,
  }) => {
    for (const [size, options] of [
      ['desktop', desktop],
      ['phone', phone],
    ] as const) {
      const { context, page, watch } = await people.newPage(options, admin);
      await openAdmin(page, admin);
      await toast(page, 'Logged In').waitFor({ state: 'detached' });
      await page.goto('/admin/analytics');
      await page.getByRole('heading', { level: 1, name: 'Analytics' }).waitFor();
      await page.locator('.views-chart .recharts-surface').waitFor();
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `admin-analytics-axe-${size}`);
      watch.assertNoErrors();
      await context.close();
    }
  });
});
