/**
 * The crash matrix over HTTP (issue 31, item 5; ADR 0019 for the library's): a server process runs a
 * non-idempotent `charge_card` for `POST /v1/threads/{id}/messages` with an `Idempotency-Key` and is
 * killed with SIGKILL at every store write in turn, once just before the write and once just after; a new
 * server process on the same SQLite file then gets the client's retry with the same key. At every kill
 * point the card is charged at most once, and exactly when the crash left the charge's outcome unknown
 * (journal row started, no result) the client is asked through a suspension — in the response and in
 * `GET /v1/threads/{id}` — and answers it through the answer route. Without the key the retry charges
 * again: the test shows that too, so it can fail.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const bundle = join(root, 'node_modules/.cache/flowstack/crash-server-child.mjs');
const dir = mkdtempSync(join(tmpdir(), 'flowstack-http-crash-'));
const token = 'alice-token-0123456789';

interface ServerChild {
  url: string;
  child: ChildProcess;
  exited: Promise<{ signal: NodeJS.Signals | null; stderr: string }>;
}

function startServer(name: string, role: string, crash?: { at: number; when: 'before' | 'after' }) {
  const child = spawn(
    process.execPath,
    [bundle, join(dir, `${name}.db`), join(dir, `${name}.effects`), role],
    {
      cwd: root,
      env: {
        ...process.env,
        FLOWSTACK_CRASH_AT: String(crash?.at ?? 0),
        FLOWSTACK_CRASH_WHEN: crash?.when ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<{ signal: NodeJS.Signals | null; stderr: string }>((done) =>
    child.once('exit', (_code, signal) => done({ signal, stderr })),
  );
  return new Promise<ServerChild>((ready, fail) => {
    let stdout = '';
    child.stdout?.on('data', (chunk) => {
      stdout += String(chunk);
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n') && line) ready({ url: line.trim(), child, exited });
    });
    exited.then(({ stderr: text }) => fail(new Error(`server exited before listening: ${text}`)));
  });
}

async function request(url: string, path: string, init: { json: unknown; key?: string }) {
  const headers: Record<string, string> = {
    authorization: `Bearer ${token}`,
    'content-type': 'application/json',
  };
  if (init.key) headers['idempotency-key'] = init.key;
  return fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(init.json) });
}

/** The client's send: retried while the dead process's lease still holds the thread (409). */
async function sendUntilAccepted(url: string, key: string | undefined) {
  for (let attempt = 0; ; attempt++) {
    const response = await request(url, '/v1/threads/t/messages', {
      json: { text: 'charge 30' },
      ...(key ? { key } : {}),
    });
    const body = await response.json();
    if (response.status !== 409 || attempt > 60) return { status: response.status, body };
    await new Promise((wait) => setTimeout(wait, 50));
  }
}

function charges(name: string): { key: string; role: string }[] {
  const path = join(dir, `${name}.effects`);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/** The audit rows of the charge, oldest first, read from the file once the servers are gone. */
function auditStatuses(name: string): string[] {
  const path = join(dir, `${name}.db`);
  const db = new Database(path, { readonly: true });
  try {
    return (
      db.prepare("SELECT status FROM audit WHERE tool_name = 'charge_card' ORDER BY id").all() as {
        status: string;
      }[]
    ).map((row) => row.status);
  } finally {
    db.close();
  }
}

function chargeLeftUnknown(name: string): boolean {
  const path = join(dir, `${name}.db`);
  if (!existsSync(path)) return false;
  const db = new Database(path, { readonly: true });
  try {
    return (
      (
        db
          .prepare("SELECT count(*) AS n FROM journal WHERE tool_name = 'charge_card' AND status = 'started'")
          .get() as {
          n: number;
        }
      ).n > 0
    );
  } catch {
    return false; // No tables yet: the kill came before the store was set up.
  } finally {
    db.close();
  }
}

/** One kill point: the first request dies with the server, the retry goes to a new server. */
async function crashAndRetry(name: string, point: { at: number; when: 'before' | 'after' }, key?: string) {
  const killed = await startServer(name, 'killed', point);
  await request(killed.url, '/v1/threads/t/messages', {
    json: { text: 'charge 30' },
    ...(key ? { key } : {}),
  }).catch(
    () => undefined, // The connection dies with the process.
  );
  const { signal } = await killed.exited;
  const unknown = chargeLeftUnknown(name);
  const restarted = await startServer(name, 'resumed');
  try {
    const retry = await sendUntilAccepted(restarted.url, key);
    const questions: string[] = [];
    let final = retry.body;
    if (retry.status === 200 || retry.status === 201) {
      const listed = (await (
        await fetch(`${restarted.url}/v1/threads/t`, { headers: { authorization: `Bearer ${token}` } })
      ).json()) as { suspensions: Array<{ suspensionId: string; kind: string; toolName: string }> };
      for (const question of (retry.body.suspensions ?? []) as Array<{
        id: string;
        kind: string;
        toolName: string;
        idempotencyKey: string;
      }>) {
        questions.push(`${question.kind}:${question.toolName}`);
        // The client sees the same question on the thread, and answers it truly: it checks the charge.
        expect(listed.suspensions.map((s) => s.suspensionId)).toContain(question.id);
        const happened = charges(name).some((c) => c.key === question.idempotencyKey);
        const answered = await request(restarted.url, `/v1/threads/t/suspensions/${question.id}`, {
          json: { feedback: { decision: happened ? 'happened' : 'not-happened' } },
        });
        final = await answered.json();
      }
    }
    return { signal, unknown, retryStatus: retry.status, final, questions, charged: charges(name).length };
  } finally {
    restarted.child.kill('SIGTERM');
    await restarted.exited;
  }
}

beforeAll(async () => {
  mkdirSync(join(root, 'node_modules/.cache/flowstack'), { recursive: true });
  await build({
    entryPoints: [join(root, 'src/server/fixtures/crash-server-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: bundle,
    logLevel: 'silent',
  });
});

describe('HTTP crash matrix: SIGKILL the server at every write, restart, retry with the same key', () => {
  it('charges the card at most once and asks the client when the crash left the charge unknown', async () => {
    const baseline = await startServer('baseline', 'run');
    const first = await request(baseline.url, '/v1/threads/t/messages', {
      json: { text: 'charge 30' },
      key: 'k-1',
    });
    expect(first.status).toBe(201);
    expect(await first.json()).toMatchObject({
      status: 'completed',
      reply: expect.stringContaining('Paid.'),
    });
    baseline.child.kill('SIGTERM');
    const writes = Number(/writes=(\d+)/.exec((await baseline.exited).stderr)?.[1] ?? 0);
    expect(writes).toBeGreaterThan(4);

    const asked: string[] = [];
    const interrupted: string[] = [];
    for (let at = 1; at <= writes; at++) {
      for (const when of ['before', 'after'] as const) {
        const point = { at, when };
        const name = `point-${at}-${when}`;
        const run = await crashAndRetry(name, point, 'k-1');
        expect({ point, signal: run.signal }).toEqual({ point, signal: 'SIGKILL' });
        expect({ point, status: run.retryStatus }).toEqual({ point, status: expect.toBeOneOf([200, 201]) });
        expect({ point, charged: run.charged }).toEqual({ point, charged: 1 });
        expect({ point, questions: run.questions }).toEqual({
          point,
          questions: run.unknown ? ['outcome_unknown:charge_card'] : [],
        });
        expect({ point, status: run.final.status }).toEqual({ point, status: 'completed' });
        // One succeeded row at most (the one charge); a row the dead process left started is settled.
        const audit = auditStatuses(name);
        expect({ point, started: audit.filter((a) => a === 'started') }).toEqual({ point, started: [] });
        expect({ point, succeeded: audit.filter((a) => a === 'succeeded').length <= 1 }).toEqual({
          point,
          succeeded: true,
        });
        if (audit.includes('interrupted')) interrupted.push(name);
        if (run.unknown) asked.push(name);
      }
    }
    // The matrix reached the window between the charge and its saved result.
    expect(asked.length).toBeGreaterThan(0);
    // …and the window between an audit row's start and its completion.
    expect(interrupted.length).toBeGreaterThan(0);
  }, 300_000);

  it('charges twice when the client retries without a key (what the key prevents)', async () => {
    // The kill just after the charge's journal row is written: the charge ran, its result was never saved.
    const baseline = await startServer('nokey-baseline', 'run');
    await request(baseline.url, '/v1/threads/t/messages', { json: { text: 'charge 30' } });
    baseline.child.kill('SIGTERM');
    await baseline.exited;
    const points = Array.from({ length: 20 }, (_, i) => ({ at: i + 1, when: 'after' as const }));
    let doubled = false;
    for (const point of points) {
      const run = await crashAndRetry(`nokey-${point.at}`, point);
      if (run.charged > 1) {
        doubled = true;
        break;
      }
    }
    expect(doubled).toBe(true);
  }, 120_000);
});
