// Baseline: a bare Fastify route that sends a fixed JSON body (fetched once from Candor), with no
// database, validation or compression. Candor's endpoints are compared with it in the same run.
import Fastify from 'fastify';

const [port, sourceUrl] = [Number(process.argv[2]), process.argv[3]!];
const body = await (await fetch(sourceUrl)).text();
const app = Fastify();
app.get('/bare', async (_req, reply) => reply.type('application/json').send(body));
await app.listen({ port, host: '127.0.0.1' });
