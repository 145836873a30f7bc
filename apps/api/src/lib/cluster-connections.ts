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
//
// The caps of a single process hold for the cluster as a whole: the primary counts every
// connection from its passing until its worker says it closed, and closes those past
// MAX_CONNECTIONS, or past MAX_CONNECTIONS_PER_CLIENT from one client, as it accepts them (a
// passed connection skips its worker's `maxConnections`: 1,000 were held with a cap of 100).
import cluster, { type Worker } from 'node:cluster';
import type http from 'node:http';
import net from 'node:net';
import { ClientCounts, clientOf } from './client-connections.js';

/** What a worker sends its primary once it can take connections. */
export const WORKER_READY = 'candor:ready';

/** Primary to worker: a connection, by number. */
interface Passed {
  candor: 'connection';
  id: number;
}
/** Worker to primary: it has the connection of that number. */
interface Taken {
  candor: 'taken';
  id: number;
}
/** Worker to primary: the connection of that number has closed. */
interface Closed {
  candor: 'closed';
  id: number;
}

/** The cluster's caps (config.http). */
export interface ConnectionCaps {
  maxConnections: number;
  maxConnectionsPerClient: number | null;
}

const isA = <T extends { candor: string }>(kind: T['candor'], message: unknown): message is T =>
  typeof message === 'object' && message !== null && (message as T).candor === kind;

/**
 * Primary (call before forking): once `workers` workers have said they are ready, listens on
 * `port` and `host` and passes each connection to the ready worker with the fewest open
 * connections (ties: the one that has waited longest). Resolves once listening; `onError` hears
 * what goes wrong after that (a failed accept: too many open files), which never stops it.
 */
export async function spreadConnections(
  port: number,
  host: string,
  workers: number,
  caps: ConnectionCaps,
  onError: (err: Error) => void,
): Promise<net.Server> {
  /** Open connections of each ready worker, by worker id (insertion order breaks ties). */
  const open = new Map<number, number>();
  /** The primary's copies of connections passed and not yet taken, by number. */
  const passing = new Map<number, { socket: net.Socket; worker: number }>();
  /** Every connection passed and not yet closed, by number: its worker and its client. */
  const held = new Map<number, { worker: number; client: string }>();
  const clients = new ClientCounts(caps.maxConnectionsPerClient ?? Infinity);
  let next = 0;
  const release = (id: number) => {
    const connection = held.get(id);
    if (!connection) return;
    held.delete(id);
    clients.release(connection.client);
    const { worker } = connection;
    if (open.has(worker)) open.set(worker, Math.max(0, open.get(worker)! - 1));
  };
  let allReady: () => void;
  const ready = new Promise<void>((resolve) => {
    allReady = resolve;
  });
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (isA<Taken>('taken', message)) {
      passing.get(message.id)?.socket.destroy();
      passing.delete(message.id);
    } else if (isA<Closed>('closed', message)) {
      release(message.id);
    } else if (message === WORKER_READY) {
      open.set(worker.id, 0);
      if (open.size >= workers) allReady();
    }
  });
  const gone = (worker: Worker) => {
    open.delete(worker.id);
    // Its connections closed with it.
    for (const [id, connection] of held) if (connection.worker === worker.id) release(id);
    for (const [id, passed] of passing) {
      if (passed.worker !== worker.id) continue;
      passed.socket.destroy();
      passing.delete(id);
    }
  };
  cluster.on('disconnect', gone);
  cluster.on('exit', gone);

  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    const client = clientOf(socket.remoteAddress);
    if (held.size >= caps.maxConnections || !clients.take(client)) {
      socket.destroy();
      return;
    }
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
      clients.release(client);
      socket.destroy(); // no worker is ready (all restarting): the client may try again
      return;
    }
    const worker = chosen.id;
    // Moved to the back: equal counts go round.
    open.delete(worker);
    open.set(worker, fewest + 1);
    const id = next++;
    held.set(id, { worker, client });
    passing.set(id, { socket, worker });
    const message: Passed = { candor: 'connection', id };
    chosen.send(message, socket, { keepOpen: true }, (err) => {
      if (!err) return;
      socket.destroy();
      passing.delete(id);
      release(id);
    });
  });
  await ready;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => {
      server.off('error', reject);
      server.on('error', onError);
      resolve();
    });
  });
  return server;
}

/**
 * Worker: serves on `server` the connections its primary passes, and tells the primary it is
 * ready, when it has taken each connection and when each closes. `server` must be listening
 * (privately) so that Node applies its request timeouts to the connections it is given.
 */
export function takeConnections(server: http.Server): void {
  // What Node does for a connection its server accepts: counted by the server, so that closing
  // the server waits for the requests on it (a graceful stop finishes them). Not public API.
  const counted = server as http.Server & { _connections: number };
  process.on('message', (message: unknown, handle: unknown) => {
    if (!isA<Passed>('connection', message) || !(handle instanceof net.Socket)) return;
    const taken: Taken = { candor: 'taken', id: message.id };
    process.send?.(taken);
    Object.assign(handle, { server, _server: server });
    counted._connections += 1;
    const closed: Closed = { candor: 'closed', id: message.id };
    handle.once('close', () => {
      if (process.connected) process.send?.(closed);
    });
    // What the server sets on the connections it accepts itself.
    handle.setNoDelay(true);
    server.emit('connection', handle);
    handle.resume();
  });
  process.send?.(WORKER_READY);
}
