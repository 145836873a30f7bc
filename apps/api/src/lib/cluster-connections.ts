// Connections of a cluster, spread by its primary: the primary accepts each connection and passes
// it to the ready worker that holds the fewest open ones; the worker serves it as its own.
//
// Why not Node's own scheduling (measured 2026-11-24, wrk opening 50 keep-alive connections at
// once): letting the workers race to accept gave one worker 47 to 50 of the 50, and 4 workers on
// 2 cores half the rate of one; round robin hands connections to whichever worker acknowledged
// last. Both it and a plain handle passing leave a connection open, never answered, when its
// worker dies before taking it (Node keeps the handles it is passing until the receiver
// acknowledges them). Here the primary keeps its copy of each connection until the worker says
// it has taken it, and closes the copies a dead worker never took: their clients see them close.
import cluster, { type Worker } from 'node:cluster';
import type http from 'node:http';
import net from 'node:net';

const CONNECTION = 'candor:connection';
/** What a worker sends its primary once it can take connections. */
export const WORKER_READY = 'candor:ready';
const CLOSED = 'candor:closed';
const TAKEN = 'candor:taken';

/**
 * Primary (call before forking): once `workers` workers have said they are ready, listens on
 * `port` and `host` and passes each connection to the ready worker with the fewest open
 * connections (ties: the one that has waited longest). Resolves once listening.
 */
export function spreadConnections(
  port: number,
  host: string,
  workers: number,
): Promise<net.Server> {
  /** Open connections of each ready worker, by worker id (insertion order breaks ties). */
  const open = new Map<number, number>();
  /** The primary's copies of connections passed to each worker and not yet taken, oldest first. */
  const passing = new Map<number, net.Socket[]>();
  let listening: Promise<net.Server> | undefined;
  let started: (server: Promise<net.Server>) => void;
  const result = new Promise<net.Server>((resolve) => {
    started = resolve;
  });
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (message === TAKEN) {
      // Handles arrive in the order they were sent, so this is the oldest one passed.
      passing.get(worker.id)?.shift()?.destroy();
    } else if (message === CLOSED && open.has(worker.id)) {
      open.set(worker.id, Math.max(0, open.get(worker.id)! - 1));
    } else if (message === WORKER_READY) {
      open.set(worker.id, 0);
      if (!listening && open.size >= workers) started((listening = listen()));
    }
  });
  const gone = (worker: Worker) => {
    open.delete(worker.id);
    for (const socket of passing.get(worker.id) ?? []) socket.destroy();
    passing.delete(worker.id);
  };
  cluster.on('disconnect', gone);
  cluster.on('exit', gone);

  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    let chosen: Worker | undefined;
    let fewest = Infinity;
    for (const [id, count] of open) {
      const worker = cluster.workers?.[id];
      if (worker?.isConnected() && count < fewest) {
        chosen = worker;
        fewest = count;
      }
    }
    if (!chosen) {
      socket.destroy(); // no worker is ready (all restarting): the client may try again
      return;
    }
    // Moved to the back: equal counts go round.
    open.delete(chosen.id);
    open.set(chosen.id, fewest + 1);
    const queue = passing.get(chosen.id) ?? [];
    passing.set(chosen.id, queue);
    queue.push(socket);
    chosen.send(CONNECTION, socket, { keepOpen: true }, (err) => {
      if (err) socket.destroy();
    });
  });
  const listen = () =>
    new Promise<net.Server>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host }, () => {
        server.off('error', reject);
        resolve(server);
      });
    });
  return result;
}

/**
 * Worker: serves on `server` the connections its primary passes, and tells the primary it is
 * ready and when each connection closes. `server` must be listening (privately) so that Node
 * applies its request timeouts to the connections it is given.
 */
export function takeConnections(server: http.Server): void {
  process.on('message', (message: unknown, handle: unknown) => {
    if (message !== CONNECTION || !(handle instanceof net.Socket)) return;
    process.send?.(TAKEN);
    // What the server sets on the connections it accepts itself.
    handle.setNoDelay(true);
    handle.once('close', () => {
      if (process.connected) process.send?.(CLOSED);
    });
    server.emit('connection', handle);
    handle.resume();
  });
  process.send?.(WORKER_READY);
}
