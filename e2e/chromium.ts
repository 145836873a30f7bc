import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { type Browser, type BrowserContextOptions, chromium } from 'playwright-core';

/** The Chromium to drive: CHROMIUM_PATH, else the system's `chromium`, else a clear error. */
export function findChromium(): string {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!fs.existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist.`);
    return fromEnv;
  }
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], { encoding: 'utf8' }).trim();
    } catch {
      // try the next name
    }
  }
  throw new Error(
    'No Chromium found for the end-to-end tests. Install it (Debian/Ubuntu: ' +
      '`sudo apt-get install chromium`) or set CHROMIUM_PATH to a Chromium or Chrome binary.',
  );
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: findChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export const phone: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  deviceScaleFactor: 2,
  isMobile: true,
  hasTouch: true,
};

export const desktop: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
