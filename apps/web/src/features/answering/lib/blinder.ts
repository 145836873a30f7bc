import type { Blinded, BlindingOp, BlindingReply, BlindingRequest } from './blinding';

/**
 * Blinds and finalizes in a worker; where no worker can start (an old browser, a test), in the
 * page, loaded on demand.
 */
interface Pending {
  resolve: (v: Blinded | string) => void;
  reject: (e: Error) => void;
}

let worker: Worker | null | undefined;
let nextId = 1;
const pending = new Map<number, Pending>();

function startWorker(): Worker | null {
  if (worker !== undefined) return worker;
  try {
    worker =
      typeof Worker === 'undefined'
        ? null
        : new Worker(new URL('./blind-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    worker = null;
  }
  if (worker) {
    worker.onmessage = (event: MessageEvent<BlindingReply>) => settle(event.data);
    worker.onerror = () => {
      // The worker could not load: what waits is done in the page instead.
      const waiting = [...pending.keys()];
      worker?.terminate();
      worker = null;
      for (const id of waiting) {
        const p = pending.get(id);
        pending.delete(id);
        p?.reject(new Error('retry-in-page'));
      }
    };
  }
  return worker;
}

function settle(reply: BlindingReply) {
  const p = pending.get(reply.id);
  if (!p) return;
  pending.delete(reply.id);
  if (reply.ok) p.resolve(reply.value);
  else p.reject(new Error(reply.error));
}

async function inPage(req: BlindingRequest) {
  const { handle } = await import('./blinding');
  const reply = await handle(req);
  if (!reply.ok) throw new Error(reply.error);
  return reply.value;
}

async function call(req: BlindingOp): Promise<Blinded | string> {
  const id = nextId++;
  const full: BlindingRequest = { ...req, id };
  const w = startWorker();
  if (!w) return inPage(full);
  try {
    return await new Promise<Blinded | string>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      w.postMessage(full);
    });
  } catch (err) {
    if (err instanceof Error && err.message === 'retry-in-page') return inPage(full);
    throw err;
  }
}

export const blindFor = (spki: string) => call({ op: 'blind', spki }) as Promise<Blinded>;
export const finalizeWith = (spki: string, kept: Blinded, blindSig: string) =>
  call({ op: 'finalize', spki, kept, blindSig }) as Promise<string>;
