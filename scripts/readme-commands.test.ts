/**
 * The README's two commands, run as a newcomer runs them on a fresh clone. The start command serves the
 * travel example on the bundled demo model, and the HTTP requests the README shows (a first message, an
 * approval answered) work against it as written. The test command is the one CI runs on a fresh clone,
 * so CI itself is its run; this test holds the README and `.ci/run` to the same words.
 *
 * `npm ci` is the one part not run here: the clone links the installed packages instead (installing them
 * again would compile the SQLite driver from source), and CI runs `npm ci` on its fresh clone.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFreshClone, repositoryRoot } from './fixtures/fresh-clone.js';

const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
const work = mkdtempSync(join(tmpdir(), 'flowstack-readme-commands-'));
const running: ChildProcess[] = [];

afterAll(() => {
  for (const child of running)
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null)
      process.kill(-child.pid, 'SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

/** The shell blocks of the README's "Two commands" section, in order, with continued lines joined. */
function shellBlocks(): string[][] {
  const start = readme.indexOf('## Two commands');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, body = '']) =>
    body
      .replace(/\\\n\s*/g, '')
      .split('\n')
      .filter((line) => line.trim() !== ''),
  );
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

interface Started {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
}

/** The start command builds the package first: a few minutes on a busy two-core machine. */
const servingWithinMs = 400_000;

/** Runs `command` in `cwd` until its output says it serves. */
async function startServing(command: string, cwd: string, port: number): Promise<Started> {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port) };
  for (const name of ['FLOWSTACK_MODEL', 'FLOWSTACK_TOKENS', 'DATABASE_URL', 'REDIS_URL']) delete env[name];
  const child = spawn('bash', ['-c', command], { cwd, env, detached: true });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await new Promise<void>((resolve, reject) => {
    const timers: { check?: NodeJS.Timeout; late?: NodeJS.Timeout } = {};
    const finish = (error?: Error) => {
      clearInterval(timers.check);
      clearTimeout(timers.late);
      if (error === undefined) resolve();
      else reject(error);
    };
    timers.check = setInterval(() => {
      if (stdout.includes('Press Ctrl-C to stop.')) finish();
    }, 100);
    timers.late = setTimeout(
      () => finish(new Error(`${command} did not serve in time:\n${stdout}\n${stderr}`)),
      servingWithinMs,
    );
    child.once('exit', (code) => finish(new Error(`${command} exited with ${code}:\n${stdout}\n${stderr}`)));
  });
  return { child, stdout: () => stdout, stderr: () => stderr };
}

/** Runs one of the README's curl lines against the local server, with its placeholders filled in. */
function curl(line: string, options: { port: number; token: string; fill?: Record<string, string> }) {
  let command = line.replace(/#.*$/, '').replaceAll('127.0.0.1:3000', `127.0.0.1:${options.port}`);
  for (const [name, value] of Object.entries(options.fill ?? {}))
    command = command.replaceAll(`<${name}>`, value);
  const ran = spawnSync('bash', ['-c', `${command} -s -w '\\n%{http_code}'`], {
    env: { ...process.env, TOKEN: options.token },
    encoding: 'utf8',
  });
  const lines = ran.stdout.trimEnd().split('\n');
  const status = Number(lines.pop());
  return { status, body: JSON.parse(lines.join('\n')) as Record<string, unknown> };
}

describe("the README's two commands", () => {
  const [start = [], requests = [], tests = []] = shellBlocks();

  it('are the start command, the requests to try, and the test command CI runs', () => {
    expect(start).toEqual(['npm ci && npm start']);
    expect(requests.map((line) => line.split(' ')[0])).toEqual(['curl', 'curl']);
    expect(tests).toEqual(['npm ci && npm test']);
    expect(readFileSync(join(repositoryRoot, '.ci/run'), 'utf8')).toContain(`(${tests[0]})`);
  });

  it(
    'npm start serves the travel example on the demo model, and the README requests book a flight',
    async () => {
      const port = await freePort();
      const clone = copyFreshClone(work);
      const served = await startServing('npm start', clone, port);
      expect(served.stderr()).toContain('bundled scripted demo model');
      const token = /Authorization: Bearer (\S+)/.exec(served.stdout())?.[1] ?? '';
      expect(token).not.toBe('');

      const page = await fetch(`http://127.0.0.1:${port}/`);
      expect(await page.text()).toMatch(/^<!doctype html>/i);

      const [first = '', approve = ''] = requests;
      const opened = curl(first, { port, token });
      expect(opened.status).toBe(201);
      expect(opened.body.reply).toMatch(/date/i);
      const threadId = String(opened.body.threadId);
      const say = async (text: string) => {
        const response = await fetch(`http://127.0.0.1:${port}/v1/threads/${threadId}/messages`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ text }),
        });
        return (await response.json()) as {
          status: string;
          reply: string;
          suspensions?: Array<{ id: string }>;
        };
      };
      expect((await say('2026-12-05')).reply).toContain('TP1351');
      const waiting = await say('book TP1351 for Ada Lovelace');
      expect(waiting.status).toBe('suspended');
      const suspensionId = waiting.suspensions?.[0]?.id ?? '';

      const approved = curl(approve, { port, token, fill: { threadId, suspensionId } });
      expect(approved.status).toBe(200);
      expect(JSON.stringify(approved.body)).toMatch(/booked/i);

      // Ctrl-C reaches the whole foreground group: npm, the shell it starts and the server; the output
      // closes when the last of them has gone.
      const closed = new Promise((resolve) => served.child.once('close', resolve));
      process.kill(-(served.child.pid ?? 0), 'SIGINT');
      await closed;
      expect(served.stderr()).toContain('flowstack serve: stopping');
    },
    servingWithinMs + 60_000,
  );
});
