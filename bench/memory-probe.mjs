// Loaded into a benchmarked server with `--import` (startCandor's `heapLog`): after every
// full (mark-compact) garbage collection it appends one JSON line to BENCH_MEMORY_PROBE with the
// heap that survived it, so a soak can tell live JavaScript objects from memory the process only
// holds (heap slack, native buffers, the allocator). Bench-only; the product never loads it.
import fs from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import v8 from 'node:v8';

const file = process.env.BENCH_MEMORY_PROBE;
if (file) {
  const MiB = 2 ** 20;
  const mib = (bytes) => Math.round((bytes / MiB) * 10) / 10;
  const started = Date.now();
  new PerformanceObserver((list) => {
    if (!list.getEntries().some((e) => e.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR)) {
      return;
    }
    const m = process.memoryUsage();
    const stats = v8.getHeapSpaceStatistics();
    const spaces = Object.fromEntries(stats.map((s) => [s.space_name, mib(s.space_used_size)]));
    // What survived: every space but the young generation's (whose garbage the next scavenge
    // drops, and which holds what was allocated between the collection and this callback).
    const retained = stats
      .filter((s) => !s.space_name.startsWith('new_'))
      .reduce((sum, s) => sum + s.space_used_size, 0);
    const line = {
      seconds: Math.round((Date.now() - started) / 1000),
      retained: mib(retained),
      rss: mib(m.rss),
      heapTotal: mib(m.heapTotal),
      heapUsed: mib(m.heapUsed),
      external: mib(m.external),
      arrayBuffers: mib(m.arrayBuffers),
      spaces,
    };
    fs.appendFileSync(file, `${JSON.stringify(line)}\n`);
  }).observe({ entryTypes: ['gc'] });
}
