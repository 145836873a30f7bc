// Baseline: a bare Fastify route that sends a fixed JSON body (fetched once from Candor), with no
// database, validation or compression, and one that takes an answer on Candor's path (JSON
// parsed, 201, nothing stored). Candor's endpoints are compared with them in the same run.
import Fastify from 'fastify';

const [port, sourceUrl] = [Number(process.argv[2]), process.argv[3]!];
const body = await (await fetch(sourceUrl)).text();
const app = Fastify();
app.get('/bare', async (_req, reply) => reply.type('application/json').send(body));
app.post('/api/v1/questions/:qid/answer/', async (_req, reply) =>
  reply.status(201).send({ ok: true }),
);
await app.listen({ port, host: '127.0.0.1' });
