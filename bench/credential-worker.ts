// A child process of bench/ingest-credentials.ts: asks the credentials of its share of the
// members (one POST /api/v1/credentials/ per member for every survey, as a device at login),
// blinding and finalizing on its own core, and sends them back in order.
import { obtainCredentialsOverHttp } from '../apps/api/src/test/credentials';

process.once('message', (task: { origin: string; tokens: string[]; gids: string[] }) => {
  void (async () => {
    const out: string[][] = [];
    for (const token of task.tokens) {
      const held = await obtainCredentialsOverHttp(task.origin, token, task.gids);
      out.push(task.gids.map((gid) => held.get(gid)!));
    }
    process.send!(out, () => process.exit(0));
  })().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
});
