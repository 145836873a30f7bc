// `npm run bench`: every scenario, each several times, medians and ratios to a baseline measured
// in the same run. Paste the printed tables into docs/performance.md.
// Scenarios: read-api, answer-ingest, results-read, page-weight, lighthouse, startup, memory, viral
// (default: all), and queue-cost, credential-issuance, backup-cost and publish-cycle (only when
// named). Needs `npm run build` first.
import { answerIngestBench, backupCostBench } from './answer-ingest';
import { credentialIssuanceBench } from './credential-issuance';
import { publishCycleBench } from './publish-cycle';
import { resultsReadBench } from './results-read';
import { lighthouseBench } from './lighthouse';
import { machineInfo } from './lib';
import { memoryBench } from './memory';
import { pageWeightBench } from './page-weight';
import { queueCostBench } from './queue-cost';
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
/** Run only when named: what queueing answers costs (migration 0010, issue 18). */
const extra: Record<string, () => Promise<string>> = {
  'queue-cost': queueCostBench,
  'credential-issuance': credentialIssuanceBench,
  'backup-cost': backupCostBench,
  'publish-cycle': publishCycleBench,
};

const chosen = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(scenarios);
console.log(machineInfo());
for (const name of chosen) {
  const run = scenarios[name] ?? extra[name];
  if (!run)
    throw new Error(
      `Unknown scenario ${name}; known: ${[...Object.keys(scenarios), ...Object.keys(extra)].join(', ')}`,
    );
  const started = Date.now();
  const table = await run();
  console.log(`\n### ${name} (${Math.round((Date.now() - started) / 1000)} s)\n\n${table}`);
}
