// One client may hold only so many of a process's connections (MAX_CONNECTIONS_PER_CLIENT):
// without it, 10,000 idle keep-alive connections from one client left a probe 0 answers of 348,
// and a slowloris of 5,000 left it 3 of 83 (issue 34), as the cap on all connections was full.
import net from 'node:net';

/**
 * The client a connection counts against: its IPv4 address, or the /64 of an IPv6 one (one
 * subscriber's line gets a whole /64: counting single addresses would cap nobody).
 */
export function clientOf(address: string | undefined): string {
  if (!address) return '';
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (v4) return v4;
  if (net.isIPv4(address)) return address;
  // Expanded to 8 groups; the first 4 name the /64.
  const [head = '', tail = ''] = address.split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g || '0', 16).toString(16))
    .join(':')}::/64`;
}

/** Open connections by client, with a cap: `take` says whether one more is allowed. */
export class ClientCounts {
  private readonly open = new Map<string, number>();

  constructor(private readonly cap: number) {}

  /** Counts a connection of `client`, unless that client already holds the cap. */
  take(client: string): boolean {
    const held = this.open.get(client) ?? 0;
    if (held >= this.cap) return false;
    this.open.set(client, held + 1);
    return true;
  }

  release(client: string): void {
    const held = this.open.get(client) ?? 0;
    if (held <= 1) this.open.delete(client);
    else this.open.set(client, held - 1);
  }
}

/**
 * Closes each connection `server` is given past `cap` open ones from its client, before HTTP
 * sees a byte of it (as Node closes those past `maxConnections`).
 */
export function capConnectionsPerClient(server: net.Server, cap: number): void {
  const counts = new ClientCounts(cap);
  server.prependListener('connection', (socket: net.Socket) => {
    const client = clientOf(socket.remoteAddress);
    if (!counts.take(client)) {
      socket.destroy();
      return;
    }
    socket.once('close', () => counts.release(client));
  });
}
