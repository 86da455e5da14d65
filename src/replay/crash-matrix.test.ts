/**
 * The crash matrix of issue 7 (DESIGN.md invariant 5): a child process runs a plan of tool calls —
 * idempotent and not — on a SQLite file and is killed with SIGKILL at every save point in turn, once
 * just before the write reaches the store and once just after; a new process then sends the same
 * request again. For every crash point: the answer equals that of an uninterrupted run, no call whose
 * completion was saved runs again, each non-idempotent tool's side effect happened exactly once, and an
 * outcome the runtime could not know was put to a person, never guessed.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const bundle = join(root, 'node_modules/.cache/flowstack/crash-child.mjs');
const dir = mkdtempSync(join(tmpdir(), 'flowstack-crash-'));

interface ChildRun {
  signal: NodeJS.Signals | null;
  code: number | null;
  result?: { status: string; reply: string; questions: string[] };
  writes?: number;
  stderr: string;
}

function runChild(
  name: string,
  role: string,
  crash?: { at: number; when: 'before' | 'after' },
): Promise<ChildRun> {
  const env = {
    ...process.env,
    FLOWSTACK_CRASH_AT: String(crash?.at ?? 0),
    FLOWSTACK_CRASH_WHEN: crash?.when ?? '',
  };
  return new Promise((done) => {
    execFile(
      process.execPath,
      [bundle, join(dir, `${name}.db`), join(dir, `${name}.effects`), role],
      { env, cwd: root, timeout: 30_000 },
      (error, stdout, stderr) => {
        const line = stdout.trim().split('\n').at(-1);
        const writes = /writes=(\d+)/.exec(stderr)?.[1];
        done({
          signal: (error as { signal?: NodeJS.Signals } | null)?.signal ?? null,
          code: (error as { code?: number } | null)?.code ?? 0,
          ...(line ? { result: JSON.parse(line) } : {}),
          ...(writes ? { writes: Number(writes) } : {}),
          stderr,
        });
      },
    );
  });
}

function effectsOf(name: string): { tool: string; key: string; role: string }[] {
  const path = join(dir, `${name}.effects`);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line));
}

/** Tool calls whose result the killed process had saved: they must never run again. */
function savedCalls(name: string): { key: string; toolName: string; status: string }[] {
  const path = join(dir, `${name}.db`);
  if (!existsSync(path)) return [];
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare("SELECT key, tool_name AS toolName, status FROM journal WHERE tool_name <> '(model)'")
      .all() as {
      key: string;
      toolName: string;
      status: string;
    }[];
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  mkdirSync(join(root, 'node_modules/.cache/flowstack'), { recursive: true });
  // One bundle for every child: each starts in a fraction of the time a TypeScript loader takes.
  await build({
    entryPoints: [join(root, 'src/agent/fixtures/crash-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outfile: bundle,
    logLevel: 'silent',
  });
});

describe('crash matrix: SIGKILL at every save point, then a new process', () => {
  it('finishes with the uninterrupted answer, runs nothing completed twice, and asks instead of guessing', async () => {
    const baseline = await runChild('baseline', 'run');
    expect(baseline.code).toBe(0);
    expect(baseline.result).toEqual({
      status: 'completed',
      reply: 'Done: Reserve a table | Check the weather | Pay the deposit | Summarize the evening',
      questions: [],
    });
    const writes = baseline.writes ?? 0;
    expect(writes).toBeGreaterThan(20);
    const points = Array.from({ length: writes }, (_, i) => i + 1).flatMap((at) => [
      { at, when: 'before' as const },
      { at, when: 'after' as const },
    ]);
    const asked: string[] = [];
    for (const point of points) {
      const name = `crash-${point.at}-${point.when}`;
      const killed = await runChild(name, 'killed', point);
      expect({ point, signal: killed.signal }).toEqual({ point, signal: 'SIGKILL' });
      const saved = savedCalls(name);
      const resumed = await runChild(name, 'resumed');
      expect({ point, code: resumed.code, stderr: resumed.code === 0 ? '' : resumed.stderr }).toEqual({
        point,
        code: 0,
        stderr: '',
      });
      expect({ point, reply: resumed.result?.reply }).toEqual({ point, reply: baseline.result?.reply });

      const effects = effectsOf(name);
      const count = (tool: string) => effects.filter((e) => e.tool === tool).length;
      // Each non-idempotent side effect happened exactly once across both processes.
      expect({ point, reserve: count('reserve_table'), charge: count('charge_card') }).toEqual({
        point,
        reserve: 1,
        charge: 1,
      });
      // Nothing whose completion was saved ran again.
      const completed = new Set(saved.filter((s) => s.status === 'succeeded').map((s) => s.key));
      const rerun = effects.filter((e) => e.role === 'resumed' && completed.has(e.key));
      expect({ point, rerun }).toEqual({ point, rerun: [] });
      // A reservation that started and saved no result is an unknown outcome: put to a person, never
      // guessed (the person checks and answers; the effect count above shows the answer was used).
      const unknown = saved.some((s) => s.toolName === 'reserve_table' && s.status === 'started');
      const questions = resumed.result?.questions ?? [];
      expect({ point, questions }).toEqual({
        point,
        questions: unknown ? ['outcome_unknown:reserve_table'] : [],
      });
      if (unknown) asked.push(`${point.at}-${point.when}`);
    }
    // The matrix did reach the window between the reservation's effect and its saved result.
    expect(asked.length).toBeGreaterThan(0);
  }, 600_000);
});
