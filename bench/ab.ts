// `npx tsx bench/ab.ts variants.json [rounds]`: the answer-ingest load against each variant in
// turn, round after round (bench/alternate.ts), and a table of medians. Answers are redeemed with
// anonymous credentials asked before the runs (untimed), as in answer-ingest. variants.json:
// { "label": { "sql"?: "run on its database once prepared", "env"?: { "NAME": "value" } } }.
import fs from 'node:fs';
import { type Variant, alternate } from './alternate';
import { machineInfo } from './lib';

const [file, rounds] = process.argv.slice(2);
if (!file) throw new Error('usage: npx tsx bench/ab.ts variants.json [rounds]');
const given = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, Omit<Variant, 'label'>>;
console.log(machineInfo());
const results = await alternate(
  Object.entries(given).map(([label, v]) => ({ label, ...v })),
  Number(rounds ?? 3),
);
console.log(
  '\n| variant | answers/s (median) | p99 ms (median) | runs | API CPU µs per answer | all CPU µs per answer | inbox after a run (median) | mixed after (median) | replies of 400 and over, socket errors |\n|---|---|---|---|---|---|---|---|---|',
);
for (const r of results) {
  console.log(
    `| ${r.label} | ${Math.round(r.rps)} | ${r.p99} | ${r.runs.join(', ')} | ${r.apiCpu} | ${r.totalCpu} | ${r.inboxLeft} | ${r.mixedAfter.toFixed(1)} s | ${r.non2xx}, ${r.socketErrors} |`,
  );
}
