// What a graceful stop does with each open connection. Node's server.close() closes only the
// idle ones: a connection with half a request (headers not finished, or a body not finished)
// counts as active, so it held the stop until Node's own timeouts cut it off (20 s for headers,
// 60 s for a body), past the 25 s shutdown deadline, which then exited 1 (issue 34, finding 9).
import type http from 'node:http';
import type net from 'node:net';

/** How long a request whose headers are in has, once the stop begins, to send the rest. */
export const BODY_GRACE_MS = 3_000;

/**
 * Tracks `server`'s connections and returns the function a stop calls as it begins (a connection
 * accepted after that is closed as it comes). It closes at once each connection that has no request being answered (silent,
 * idle keep-alive, or partway through the headers of its next request: nothing of it has
 * reached a handler, and the client may send it again elsewhere); a request whose body is still
 * arriving gets `graceMs` to finish it, then its connection is closed; a complete request is
 * answered (its response says `Connection: close`, app.ts).
 */
export function trackConnectionsForShutdown(
  server: http.Server,
  { graceMs = BODY_GRACE_MS }: { graceMs?: number } = {},
): () => void {
  const open = new Set<net.Socket>();
  // The last request read on each connection: pipelined responses go out in order, so when its
  // response has finished, every earlier one has too.
  const last = new WeakMap<net.Socket, http.ServerResponse>();
  let stopping = false;
  server.on('connection', (socket: net.Socket) => {
    if (stopping) {
      socket.destroy();
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    last.set(req.socket, res);
  });

  // Nothing of it is being answered: no request has come whole since the last response.
  const unanswered = (socket: net.Socket) => {
    const res = last.get(socket);
    return !res || res.writableFinished;
  };
  const arriving = (socket: net.Socket) => !last.get(socket)!.req.complete;
  return () => {
    stopping = true;
    const waiting: net.Socket[] = [];
    for (const socket of open) {
      if (unanswered(socket)) socket.destroy();
      else if (arriving(socket)) waiting.push(socket);
    }
    if (waiting.length === 0) return;
    setTimeout(() => {
      for (const socket of waiting) {
        // Still arriving, or answered (its body came in time): closed. Else being answered.
        if (!socket.destroyed && (unanswered(socket) || arriving(socket))) socket.destroy();
      }
    }, graceMs).unref();
  };
}
