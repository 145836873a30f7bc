// Lighthouse (performance, accessibility, best practices) for the home page and a survey page at
// its default mobile settings (Moto G Power emulation, simulated slow 4G and 4x CPU slowdown) in
// the system Chromium, 3 runs per page, medians. Each run gets a fresh Chromium (new profile):
// Lighthouse clears the HTTP cache between runs but not IndexedDB or localStorage, which the app
// uses, so a reused browser would not measure a first visit. The last run's full report of each
// page is written to test-results/lighthouse/ to be opened in a browser.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { findChromium } from '../e2e/chromium';
import { median, pathLabel, root, startCandor, surveyPath } from './lib';

const RUNS = 3;
const categories = ['performance', 'accessibility', 'best-practices'] as const;
const outDir = path.join(root, 'test-results/lighthouse');

// Chromium must reach nothing but the app: hostnames other than the server's address do not
// resolve. chrome-launcher's defaults already turn off background networking, component
// updates, sync, translation and the like.
const chromeFlags = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
];

interface Page {
  label: string;
  scores: Record<(typeof categories)[number], number[]>;
  metrics: { fcp: number[]; lcp: number[]; tbt: number[]; cls: number[] };
  benchmarkIndex: number[];
  /** Audits that cost accessibility or best-practices points: id -> title, runs it failed. */
  failed: Map<string, { category: string; title: string; runs: number }>;
  offOrigin: Set<string>;
  warnings: Set<string>;
  /** Runtime errors of runs that were run again. */
  retried: string[];
  versions: string;
}

// The user agent says 156.0.0.0 (reduced); the binary knows its full version.
const chromiumVersion = () =>
  execFileSync(findChromium(), ['--version'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  })
    .replace(/ built on.*/s, '')
    .trim();

/** One Lighthouse run in a Chromium of its own. */
async function run(url: string) {
  const chrome = await chromeLauncher.launch({
    chromePath: findChromium(),
    chromeFlags,
    logLevel: 'silent',
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      logLevel: 'error',
      output: ['html', 'json'],
      onlyCategories: [...categories],
    });
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
    return result;
  } finally {
    chrome.kill();
  }
}

async function audit(baseUrl: string, pathname: string, file: string) {
  const page: Page = {
    label: pathLabel(pathname),
    scores: { performance: [], accessibility: [], 'best-practices': [] },
    metrics: { fcp: [], lcp: [], tbt: [], cls: [] },
    benchmarkIndex: [],
    failed: new Map(),
    offOrigin: new Set(),
    warnings: new Set(),
    retried: [],
    versions: '',
  };
  for (let i = 0; i < RUNS; i++) {
    let result = await run(`${baseUrl}${pathname}`);
    // Lighthouse 12 now and then finds no navigationStart in Chromium 156's trace (NO_NAVSTART,
    // twice in ~50 runs here) and asks to be run again: once, and the output says so.
    if (result.lhr.runtimeError) {
      page.retried.push(result.lhr.runtimeError.code);
      result = await run(`${baseUrl}${pathname}`);
    }
    const lhr = result.lhr;
    if (lhr.runtimeError) throw new Error(`${pathname}: ${lhr.runtimeError.message}`);
    for (const w of lhr.runWarnings) page.warnings.add(w);
    for (const c of categories) {
      const score = lhr.categories[c]?.score;
      if (score == null) throw new Error(`${pathname}: no ${c} score`);
      page.scores[c].push(Math.round(score * 100));
    }
    const value = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    page.metrics.fcp.push(value('first-contentful-paint'));
    page.metrics.lcp.push(value('largest-contentful-paint'));
    page.metrics.tbt.push(value('total-blocking-time'));
    page.metrics.cls.push(value('cumulative-layout-shift'));
    page.benchmarkIndex.push(lhr.environment.benchmarkIndex);
    page.versions = `Lighthouse ${lhr.lighthouseVersion}, ${chromiumVersion()}`;
    for (const c of ['accessibility', 'best-practices'] as const) {
      for (const ref of lhr.categories[c]?.auditRefs ?? []) {
        const a = lhr.audits[ref.id];
        if (!a || ref.weight === 0 || a.score === null || a.score >= 1) continue;
        const seen = page.failed.get(a.id) ?? { category: c, title: a.title, runs: 0 };
        seen.runs++;
        page.failed.set(a.id, seen);
      }
    }
    const requests = lhr.audits['network-requests']?.details as
      { items?: Array<{ url?: string }> } | undefined;
    for (const { url } of requests?.items ?? []) {
      if (url && !url.startsWith(baseUrl) && !url.startsWith('data:')) page.offOrigin.add(url);
    }
    if (i === RUNS - 1) {
      const [html, json] = result.report as string[];
      fs.writeFileSync(path.join(outDir, `${file}.report.html`), html!);
      fs.writeFileSync(path.join(outDir, `${file}.report.json`), json!);
    }
  }
  return page;
}

function table(pages: Page[]): string {
  const ms = (xs: number[]) => Math.round(median(xs)).toLocaleString('en-US');
  const s = (xs: number[]) => (median(xs) / 1000).toFixed(1);
  const lines = [
    '| page | performance | accessibility | best practices | FCP s | LCP s | TBT ms | CLS | performance runs |',
    '|---|---|---|---|---|---|---|---|---|',
    ...pages.map(
      (p) =>
        `| \`${p.label}\` | ${median(p.scores.performance)} | ${median(p.scores.accessibility)} | ` +
        `${median(p.scores['best-practices'])} | ${s(p.metrics.fcp)} | ${s(p.metrics.lcp)} | ` +
        `${ms(p.metrics.tbt)} | ${median(p.metrics.cls).toFixed(3)} | ${p.scores.performance.join(', ')} |`,
    ),
    '',
    `${pages[0]?.versions}, runs per page: ${RUNS}; benchmarkIndex (machine speed, ` +
      `median): ${pages.map((p) => `${p.label} ${Math.round(median(p.benchmarkIndex))}`).join(', ')}.`,
    `Reports of the last run: ${path.relative(root, outDir)}/.`,
    '',
    `Audits that cost accessibility or best-practices points (runs failed of ${RUNS}):`,
  ];
  const failed = pages.flatMap((p) =>
    [...p.failed].map(
      ([id, f]) => `- \`${p.label}\` ${f.category}: ${f.title} (\`${id}\`, ${f.runs}/${RUNS})`,
    ),
  );
  lines.push(...(failed.length ? failed : ['- none']));
  for (const p of pages) {
    if (p.offOrigin.size)
      lines.push(`\nRequests outside the app (\`${p.label}\`): ${[...p.offOrigin].join(', ')}`);
    if (p.retried.length) lines.push(`\nRuns run again (\`${p.label}\`): ${p.retried.join(', ')}`);
    if (p.warnings.size)
      lines.push(`\nLighthouse warnings (\`${p.label}\`): ${[...p.warnings].join(' / ')}`);
  }
  return lines.join('\n');
}

export async function lighthouseBench(): Promise<string> {
  fs.mkdirSync(outDir, { recursive: true });
  const server = await startCandor({});
  try {
    const pages = [
      await audit(server.url, '/', 'home'),
      await audit(server.url, await surveyPath(server.url), 'survey'),
    ];
    return table(pages);
  } finally {
    await server.stop();
  }
}
