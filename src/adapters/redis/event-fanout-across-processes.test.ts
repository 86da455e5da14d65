/**
 * Issue 9's acceptance for events: an SSE client on API process A receives the events of turns that a
 * worker process runs and publishes through Redis — with none missing and none twice after a reconnect
 * with Last-Event-ID. The two processes share a store — a SQLite file, and a PostgreSQL schema when
 * PostgreSQL runs; A runs no turn itself and has no polling, so whatever A's stream receives live came
 * through Redis.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { replayObservations } from '../../observe/index.js';
import {
  api,
  createWeatherAgent,
  readServerSentEvents,
  type ServerSentEvent,
  startTestServer,
} from '../../server/fixtures/server-fixture.js';
import type { Observation, StateStore } from '../../spec/index.js';
import { createSqliteStore } from '../../store/index.js';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { createPostgresStore } from '../postgres/index.js';
import { bundleChild, type LineChild, startLineChild } from './fixtures/line-child.js';
import { createRedisEventFanout } from './index.js';

const url = process.env.FLOWSTACK_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const available = await serviceAvailable('redis', url);
const postgresUrl = process.env.FLOWSTACK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const postgresAvailable = available && (await serviceAvailable('postgres', postgresUrl));
let cases = 0;
let bundle = '';
const cleanups: Array<() => Promise<void> | void> = [];

/** Reads a line from the worker, failing on anything but `expected`. */
async function expectLine(worker: LineChild, expected: string) {
  expect(await worker.next()).toBe(expected);
}

describeWithService({ kind: 'redis', url, available, describe }, 'event fan-out across processes', () => {
  beforeAll(async () => {
    bundle = await bundleChild('turn-worker-child');
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('an SSE client on API process A gets every event of turns a worker runs, exactly once across a reconnect (SQLite file)', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flowstack-fanout-')), 'shared.db');
    await checkAcrossProcesses(createSqliteStore({ path }), { sqlite: path });
  });

  // PostgreSQL is the store of a real scale-out; without it this case is skipped like the store's own tests.
  it.skipIf(!postgresAvailable && process.env.FLOWSTACK_REQUIRE_SERVICES !== '1')(
    'the same with a PostgreSQL schema as the shared store',
    async () => {
      const schema = `flowstack_fanout_${randomBytes(4).toString('hex')}`;
      const store = createPostgresStore({ connectionString: postgresUrl, schema });
      cleanups.push(async () => {
        await store.close();
        const pool = new pg.Pool({ connectionString: postgresUrl, max: 1 });
        await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await pool.end();
      });
      await store.ready();
      await checkAcrossProcesses(store, { postgres: postgresUrl, schema });
    },
  );
});

/**
 * Process A (this one) serves SSE on `store`; a worker child runs three turns on the same store. The
 * client reads three events of turn 1, disconnects, misses turn 2, reconnects with Last-Event-ID while
 * turn 3 waits in a model call, and then follows turn 3 live.
 */
async function checkAcrossProcesses(store: StateStore, where: Record<string, string>) {
  // A channel per case, so that the cases never hear each other.
  const prefix = `flowstack-test:sse:${process.pid}:${Date.now().toString(36)}:${++cases}`;
  const fanout = createRedisEventFanout({ url, prefix, store });
  cleanups.push(() => fanout.close());
  await fanout.ready();
  // Process A: an API server whose own agent never runs a turn here.
  const serverA = await startTestServer({
    agent: createWeatherAgent({ store }).agent,
    server: { fanout },
  });
  cleanups.push(() => serverA.close());
  const worker = startLineChild(bundle, [JSON.stringify(where), url, prefix]);
  cleanups.push(() => worker.kill());
  await expectLine(worker, 'ready');
  const alice = api(serverA.url, 'alice');
  const threadId = 't-fanout';
  const received: Observation[] = [];
  const progress: Observation[] = [];

  // Turn 1 starts on the worker and waits in its first model call: the thread exists, A may stream it.
  worker.send('hold');
  worker.send(`send ${threadId} weather in Oslo`);
  await expectLine(worker, 'waiting');
  const first = new AbortController();
  const stream1 = await alice(`/v1/threads/${threadId}/events`, { signal: first.signal });
  expect(stream1.status).toBe(200);
  worker.send('release');
  for await (const event of readServerSentEvents(stream1.body as ReadableStream<Uint8Array>)) {
    const observation = take(event, received, progress);
    if (observation && received.length === 3) break;
  }
  first.abort();
  await expectLine(worker, 'done completed');

  // While the client is away: a second turn completes, and a third waits in its first model call.
  worker.send(`send ${threadId} weather in Rome`);
  await expectLine(worker, 'done completed');
  worker.send('hold');
  worker.send(`send ${threadId} weather in Paris`);
  await expectLine(worker, 'waiting');

  // Reconnect after the last id seen: the rest of turns 1 and 2 from the store, then turn 3 live.
  const lastSeen = received.at(-1)?.id as number;
  const progressBefore = progress.length;
  const reconnect = new AbortController();
  const stream2 = await alice(`/v1/threads/${threadId}/events`, {
    headers: { 'last-event-id': String(lastSeen) },
    signal: reconnect.signal,
  });
  let finals = received.filter((o) => o.type === 'final-response').length;
  for await (const event of readServerSentEvents(stream2.body as ReadableStream<Uint8Array>)) {
    const observation = take(event, received, progress);
    if (observation?.type !== 'final-response') continue;
    finals += 1;
    if (finals === 2) worker.send('release'); // turns 1 and 2 replayed: let turn 3 go on
    if (finals === 3) break;
  }
  reconnect.abort();
  await expectLine(worker, 'done completed');

  const stored: Observation[] = [];
  for await (const o of replayObservations(store, threadId)) stored.push(o);
  expect(stored.filter((o) => o.type === 'final-response')).toHaveLength(3);
  expect(received.map((o) => o.id)).toEqual(stored.map((o) => o.id));
  expect(received).toEqual(stored);
  // Turn 3's live progress crossed from the worker to A through Redis too.
  const turn3 = stored.at(-1)?.turnId;
  expect(progress.slice(progressBefore).some((o) => o.turnId === turn3)).toBe(true);
}

/** Sorts an SSE event into stored observations (checked against its event id) or progress. */
function take(event: ServerSentEvent, received: Observation[], progress: Observation[]) {
  const observation = JSON.parse(event.data) as Observation;
  if (event.event === 'progress') {
    progress.push(observation);
    return undefined;
  }
  expect(event.id).toBe(String(observation.id));
  received.push(observation);
  return observation;
}
