// `npm run bench`: every scenario, each several times, medians and ratios to a baseline measured
// in the same run. Paste the printed tables into docs/performance.md.
// Scenarios: read-api, answer-ingest, results-read, page-weight, lighthouse, startup, memory, viral
// (default: all). Needs `npm run build` first.
import { answerIngestBench } from './answer-ingest';
import { resultsReadBench } from './results-read';
import { lighthouseBench } from './lighthouse';
import { machineInfo } from './lib';
import { memoryBench } from './memory';
import { pageWeightBench } from './page-weight';
import { readApiBench } from './read-api';
import { startupBench } from './startup';
import { viralBench } from './viral';

const scenarios: Record<string, () => Promise<string>> = {
  'read-api': readApiBench,
  'answer-ingest': answerIngestBench,
  'results-read': resultsReadBench,
  'page-weight': pageWeightBench,
  lighthouse: lighthouseBench,
  startup: () => startupBench(),
  memory: memoryBench,
  viral: viralBench,
};

const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(scenarios);
console.log(machineInfo());
for (const name of chosen) {
  const run = scenarios[name];
  if (!run)
    throw new Error(`Unknown scenario ${name}; known: ${Object.keys(scenarios).join(', ')}`);
  const started = Date.now();
  const table = await run();
  console.log(`\n### ${name} (${Math.round((Date.now() - started) / 1000)} s)\n\n${table}`);
}
