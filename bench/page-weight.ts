// Bytes a first visit transfers (cold cache) in Chromium: JavaScript and total, as served
// (Chromium accepts brotli) and as gzip (each JS file fetched again with Accept-Encoding: gzip).
import { chromium } from 'playwright-core';
import { findChromium } from '../e2e/chromium';
import { pathLabel, startCandor, surveyPath } from './lib';

async function visit(baseUrl: string, pathname: string) {
  const browser = await chromium.launch({
    executablePath: findChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
    ],
  });
  try {
    const page = await (
      await browser.newContext({ viewport: { width: 390, height: 844 } })
    ).newPage();
    const finished: Array<{ url: string; type: string; bytes: number }> = [];
    page.on('requestfinished', async (req) => {
      const sizes = await req.sizes();
      finished.push({
        url: req.url(),
        type: req.resourceType(),
        bytes: sizes.responseBodySize + sizes.responseHeadersSize,
      });
    });
    await page.goto(`${baseUrl}${pathname}`, { waitUntil: 'networkidle' });
    await page.waitForTimeout(300);
    const js = finished.filter((f) => f.type === 'script');
    let jsGzip = 0;
    for (const f of js) {
      // fetch() decompresses the body, so the size on the wire comes from Content-Length.
      const res = await fetch(f.url, { headers: { 'Accept-Encoding': 'gzip' } });
      await res.arrayBuffer();
      jsGzip += Number(res.headers.get('content-length') ?? Number.NaN);
    }
    return {
      pathname,
      requests: finished.length,
      total: finished.reduce((n, f) => n + f.bytes, 0),
      js: js.reduce((n, f) => n + f.bytes, 0),
      jsGzip,
      jsFiles: js.length,
    };
  } finally {
    await browser.close();
  }
}

export async function pageWeightBench() {
  const server = await startCandor({});
  try {
    const rows = [
      await visit(server.url, '/'),
      await visit(server.url, await surveyPath(server.url)),
    ];
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    return [
      '| page | requests | JS files | JS transferred (br) | JS as gzip | total transferred |',
      '|---|---|---|---|---|---|',
      ...rows.map(
        (r) =>
          `| \`${pathLabel(r.pathname)}\` | ${r.requests} | ${r.jsFiles} | ${kb(r.js)} | ${kb(r.jsGzip)} | ${kb(r.total)} |`,
      ),
    ].join('\n');
  } finally {
    await server.stop();
  }
}
