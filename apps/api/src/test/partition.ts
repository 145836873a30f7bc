import net from 'node:net';

/**
 * A TCP proxy in front of a server that can fall silent the way a network partition does:
 * `partition()` stops every byte both ways while every socket stays open, and nothing is ever
 * closed or refused, so only a timeout can tell a client something is wrong. New connections
 * are accepted and then hear nothing either. `heal()` lets what was held back through, as TCP
 * would once the network returns. (Firewall rules would need root; this runs anywhere.)
 * `partition(only)` silences only the connections whose PostgreSQL startup message contains
 * `only` (e.g. an `application_name`), present and future: one frozen connection of a process
 * whose others go on working.
 */
export interface PartitionProxy {
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  partition(only?: string): void;
  /**
   * Delays every byte both ways by `ms` on the connections whose startup message contains
   * `only`, present and future, in order: a slow path to one kind of connection.
   */
  slow(only: string, ms: number): void;
  /** Ends the partition and the slowness. */
  heal(): void;
  close(): Promise<void>;
}

export async function startPartitionProxy(target: string): Promise<PartitionProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  // false, or which connections are silent: all (true) or those whose startup contains it.
  let silent: boolean | string = false;
  // What reached the proxy while silent, in order: delivered on heal().
  let held: Array<() => void> = [];
  let slowness: { only: string; ms: number } | undefined;
  // Half-open allowed: an end from one side is passed on (or held), never answered by the proxy.
  const server = net.createServer({ allowHalfOpen: true }, (downstream) => {
    const upstream = net.connect({
      port: Number(port || 5432),
      host: hostname,
      allowHalfOpen: true,
    });
    // The client's first bytes: its startup message, with its parameters in plain text.
    let startup: string | undefined;
    downstream.once('data', (chunk: Buffer) => {
      startup = chunk.toString('latin1');
    });
    const isSilent = () =>
      silent === true || (typeof silent === 'string' && (startup ?? '').includes(silent));
    const pass = (deliver: () => void) => (isSilent() ? held.push(deliver) : deliver());
    const lag = () => (slowness && (startup ?? '').includes(slowness.only) ? slowness.ms : 0);
    const join = (from: net.Socket, to: net.Socket) => {
      sockets.add(from);
      // What is delayed, in order; nothing overtakes it, so the stream stays whole.
      const due: Array<{ at: number; deliver: () => void }> = [];
      let timer: NodeJS.Timeout | undefined;
      const drain = () => {
        timer = undefined;
        while (due.length && due[0]!.at <= performance.now()) pass(due.shift()!.deliver);
        if (due.length) timer = setTimeout(drain, Math.max(1, due[0]!.at - performance.now()));
      };
      const send = (deliver: () => void) => {
        const ms = lag();
        if (ms === 0 && due.length === 0) {
          pass(deliver);
          return;
        }
        due.push({ at: Math.max(performance.now() + ms, due.at(-1)?.at ?? 0), deliver });
        timer ??= setTimeout(drain, Math.max(0, due[0]!.at - performance.now()));
      };
      from.on('data', (chunk: Buffer) => send(() => to.write(chunk)));
      from.on('end', () => send(() => to.end()));
      from.on('close', () => {
        sockets.delete(from);
        send(() => to.destroy());
      });
      from.on('error', () => undefined); // 'close' follows
    };
    join(downstream, upstream);
    join(upstream, downstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxyPort = (server.address() as net.AddressInfo).port;
  return {
    through(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(proxyPort);
      return u.toString();
    },
    partition(only) {
      silent = only ?? true;
    },
    slow(only, ms) {
      slowness = { only, ms };
    },
    heal() {
      silent = false;
      slowness = undefined;
      const due = held;
      held = [];
      for (const deliver of due) deliver();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
