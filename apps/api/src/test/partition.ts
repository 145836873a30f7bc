import net from 'node:net';

/**
 * A TCP proxy in front of a server that can fall silent the way a network partition does:
 * `partition()` stops every byte both ways while every socket stays open, and nothing is ever
 * closed or refused, so only a timeout can tell a client something is wrong. New connections
 * are accepted and then hear nothing either. `heal()` lets what was held back through, as TCP
 * would once the network returns. (Firewall rules would need root; this runs anywhere.)
 */
export interface PartitionProxy {
  /** `url` with its host and port replaced by the proxy's. */
  through(url: string): string;
  partition(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startPartitionProxy(target: string): Promise<PartitionProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<net.Socket>();
  let silent = false;
  // What reached the proxy while silent, in order: delivered on heal().
  let held: Array<() => void> = [];
  const pass = (deliver: () => void) => (silent ? held.push(deliver) : deliver());
  // Half-open allowed: an end from one side is passed on (or held), never answered by the proxy.
  const server = net.createServer({ allowHalfOpen: true }, (downstream) => {
    const upstream = net.connect({
      port: Number(port || 5432),
      host: hostname,
      allowHalfOpen: true,
    });
    const join = (from: net.Socket, to: net.Socket) => {
      sockets.add(from);
      from.on('data', (chunk: Buffer) => pass(() => to.write(chunk)));
      from.on('end', () => pass(() => to.end()));
      from.on('close', () => {
        sockets.delete(from);
        pass(() => to.destroy());
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
    partition() {
      silent = true;
    },
    heal() {
      silent = false;
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
