// Where the machine's CPU goes during a measured run (Linux, /proc): all of it, the API's
// processes and PostgreSQL's, per request. On a small machine the load generator, the API and the
// database share the cores, so a rate is bounded by the CPU each request costs all of them
// together: `cores * 1e6 / total` requests/s with every core busy.
import fs from 'node:fs';
import os from 'node:os';

const TICK_US = 10_000; // USER_HZ is 100 on Linux

/** CPU microseconds per request, and how busy the machine was (1 = every core all the time). */
export interface CpuUse {
  /** Every process on the machine (the load generator, the API, the database, the rest). */
  total: number;
  /** The API's processes (Candor's server and its workers, or the bare route's). */
  api: number;
  /** The PostgreSQL processes that lived through the whole run (its backends and helpers). */
  postgres: number;
  busy: number;
}

const API_PROCESS = /apps\/api\/dist[^ ]*\/server\.js|bench\/bare-server/;

function machineTicks(): { busy: number; all: number } {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1);
  const t = cpu.map(Number);
  const all = t.slice(0, 8).reduce((a, b) => a + b, 0);
  // idle and iowait are the 4th and 5th fields
  return { busy: all - t[3]! - t[4]!, all };
}

/** A process's name and the CPU ticks (user + system) it has used, from /proc/<pid>/stat. */
function readStat(pid: number): { comm: string; ticks: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    ticks: Number(fields[11]) + Number(fields[12]),
  };
}

/** The CPU time (µs) process `pid` has used. */
export const cpuMicros = (pid: number) => readStat(pid).ticks * TICK_US;

function processTicks(): Map<number, { kind: 'api' | 'postgres' | 'other'; ticks: number }> {
  const out = new Map<number, { kind: 'api' | 'postgres' | 'other'; ticks: number }>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const { comm, ticks } = readStat(Number(name));
      const kind = comm.startsWith('postgres')
        ? 'postgres'
        : API_PROCESS.test(fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' '))
          ? 'api'
          : 'other';
      out.set(Number(name), { kind, ticks });
    } catch {
      // the process ended while being read
    }
  }
  return out;
}

/** Starts measuring; `stop(requests)` gives the CPU per request since. Linux only. */
export function cpuMeter(): { stop: (requests: number) => CpuUse } {
  const machine = machineTicks();
  const procs = processTicks();
  return {
    stop(requests) {
      const m = machineTicks();
      const sums = { api: 0, postgres: 0 };
      for (const [pid, now] of processTicks()) {
        if (now.kind === 'other') continue;
        // A process born during the run counts from zero.
        sums[now.kind] += now.ticks - (procs.get(pid)?.ticks ?? 0);
      }
      const per = (ticks: number) => Math.round((ticks * TICK_US) / Math.max(requests, 1));
      return {
        total: per(m.busy - machine.busy),
        api: per(sums.api),
        postgres: per(sums.postgres),
        busy: Math.round((100 * (m.busy - machine.busy)) / (m.all - machine.all)) / 100,
      };
    },
  };
}

/** The rate every core of this machine would allow at `microseconds` of CPU per request. */
export const ceiling = (microseconds: number) =>
  Math.round((os.cpus().length * 1e6) / microseconds);
