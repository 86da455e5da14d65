import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io.js';
import { exitCodes } from './exit-codes.js';
import { runCli } from './run-cli.js';

function fakeIo(options: { input?: string[]; interactive?: boolean; env?: NodeJS.ProcessEnv } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  let stop: () => void = () => undefined;
  const io: CliIo = {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    errWrite: (text) => err.push(text),
    interactive: options.interactive === true,
    env: options.env ?? {},
    stdin: Readable.from((options.input ?? []).map((line) => `${line}\n`)),
    stdout: new PassThrough(),
    stopped: new Promise((resolve) => {
      stop = resolve;
    }),
  };
  return { io, out, err, stop: () => stop() };
}

const db = () => join(mkdtempSync(join(tmpdir(), 'flowstack-cli-')), 'cli.db');

describe('flowstack command line', () => {
  it('runs one message, prints the reply, and exits 0 / 3 by whether the agent waits for the user', async () => {
    const path = db();
    const done = fakeIo();
    expect(await runCli(['run', 'travel', 'flights to Lisbon on 2026-12-05', '--db', path], done.io)).toBe(
      exitCodes.ok,
    );
    expect(done.out.join('\n')).toContain('agent> Found 2 flights to Lisbon on 2026-12-05');
    expect(done.out.join('\n')).toContain('TP1351');

    const waiting = fakeIo();
    const code = await runCli(
      ['run', 'I want to fly to Rome', '--db', path, '--thread', 'q1', '--json'],
      waiting.io,
    );
    expect(code).toBe(exitCodes.waiting);
    expect(waiting.out).toHaveLength(1);
    expect(JSON.parse(waiting.out[0] as string)).toMatchObject({
      threadId: 'q1',
      status: 'needs-input',
      pending: { slot: 'date' },
    });
  });

  it('runs the data-analysis example with its dataset beside the database', async () => {
    const path = db();
    const run = fakeIo();
    expect(
      await runCli(['run', 'data-analysis', 'chart revenue by region', '--db', path, '--json'], run.io),
    ).toBe(exitCodes.ok);
    expect(JSON.parse(run.out[0] as string)).toMatchObject({ status: 'completed' });
    expect(statSync(join(path, '..', 'data-analysis.db')).isFile()).toBe(true);
  });

  it('runs the operations example on the MCP filesystem server with its workspace beside the database', async () => {
    const path = db();
    const run = fakeIo();
    expect(await runCli(['run', 'operations', 'show config/service.yaml', '--db', path], run.io)).toBe(
      exitCodes.ok,
    );
    expect(run.out.join('\n')).toContain('log_level: info');
    const held = fakeIo();
    const code = await runCli(
      ['run', 'operations', 'tell the team about logs/incident.log', '--db', path],
      held.io,
    );
    expect(code).toBe(exitCodes.waiting);
    expect(held.out.join('\n')).toContain('lethal trifecta');
  });

  it('draws a spinner for model and tool calls on a terminal, and nothing of it in --json output', async () => {
    const run = fakeIo({ interactive: true });
    await runCli(['run', 'travel', 'flights to Paris on 2026-12-05', '--db', db(), '--json'], run.io);
    const progress = run.err.join('');
    expect(progress).toContain('Running find flights…');
    expect(progress).toContain('Thinking (search flights)…');
    expect(run.out.join('')).not.toContain('Running');
    expect(JSON.parse(run.out[0] as string).status).toBe('completed');
  });

  it('chats on one thread until an empty line, then lists and shows the thread with its events', async () => {
    const path = db();
    const chat = fakeIo({
      input: ['I want to fly to Lisbon', '2026-12-05', 'book TP1351 for Ada Lovelace', 'yes', ''],
    });
    expect(await runCli(['chat', '--db', path, '--thread', 'c1'], chat.io)).toBe(exitCodes.ok);
    expect(chat.out.filter((l) => l.startsWith('agent>'))).toEqual([
      'agent> On which date would you like to fly (YYYY-MM-DD)?',
      expect.stringContaining('agent> Found 2 flights to Lisbon'),
      expect.stringContaining(
        'agent> Waiting for you: Book a flight (Flight: "TP1351", Passenger: "Ada Lovelace")?',
      ),
      'agent> Booked TP1351 for Ada Lovelace; your reference is BK0001.',
    ]);

    const threads = fakeIo();
    await runCli(['threads', '--db', path, '--json'], threads.io);
    expect(
      JSON.parse(threads.out[0] as string).threads.map((t: { threadId: string; principal: string }) => [
        t.threadId,
        t.principal,
      ]),
    ).toEqual([['c1', 'local']]);

    const show = fakeIo();
    expect(await runCli(['show', 'c1', '--db', path, '--events'], show.io)).toBe(exitCodes.ok);
    const text = show.out.join('\n');
    expect(text).toContain('you  > book TP1351 for Ada Lovelace');
    expect(text).toContain('Flow stack: empty');
    expect(text).toMatch(/▾ Book flight\n\s+- Started book flight #\d+\n\s+- Called book flight #\d+/);
  });

  it('says plainly when a thread, an example or a capability is missing, with its exit code', async () => {
    const path = db();
    const cases: Array<[string[], number, string]> = [
      [['show', 'nope', '--db', path], exitCodes.notFound, "no thread 'nope'"],
      [
        ['run', '--example', 'cooking', 'hello', '--db', path],
        exitCodes.notFound,
        "unknown example 'cooking'",
      ],
      [['frobnicate'], exitCodes.usage, "unknown command 'frobnicate'"],
      [['run', '--db', path], exitCodes.usage, 'give the message to send'],
      [['approve', '--db', path], exitCodes.usage, 'name the thread'],
      [['approve', 'x', '--args', '[1]', '--db', path], exitCodes.usage, '--args must be a JSON object'],
      [['threads', '--limit', 'lots', '--db', path], exitCodes.usage, '--limit'],
      [['run', '--nope'], exitCodes.usage, "Unknown option '--nope'"],
    ];
    for (const [argv, code, message] of cases) {
      const io = fakeIo();
      expect(await runCli(argv, io.io), argv.join(' ')).toBe(code);
      expect(io.err.join('\n'), argv.join(' ')).toContain(message);
    }
    await runCli(['run', 'flights to Oslo on 2026-12-05', '--db', path, '--thread', 'r1'], fakeIo().io);
    const rollback = fakeIo();
    expect(await runCli(['rollback', 'r1', '--db', path], rollback.io)).toBe(exitCodes.notFound);
    expect(rollback.err.join('')).toContain("thread 'r1' has no file snapshots");
  });

  it('serves the travel example: prints the address with a kept token, answers over HTTP, stops on SIGINT', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-serve-'));
    const main = resolve(import.meta.dirname, 'main.ts');
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', main, 'serve', '--port', '0', '--db', join(dir, 'serve.db')],
      {
        env: { ...process.env, FLOWSTACK_MODEL: '', FLOWSTACK_TOKENS: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += String(chunk);
    });
    const exited = new Promise<number | null>((resolveExit) => child.on('exit', (code) => resolveExit(code)));
    try {
      await new Promise<void>((ready, fail) => {
        child.stdout.on('data', () => output.includes('Ctrl-C') && ready());
        child.on('exit', () => fail(new Error(`serve exited early: ${output}`)));
      });
      const url = /at (http:\/\/[\d.:]+)/.exec(output)?.[1] as string;
      const token = readFileSync(join(dir, 'serve-token'), 'utf8').trim();
      expect(statSync(join(dir, 'serve-token')).mode & 0o777).toBe(0o600);
      expect(output).toContain(`${url}/#token=${token}`);
      const page = await fetch(`${url}/`);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const turn = await fetch(`${url}/v1/threads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'flights to Paris on 2026-12-05' }),
      });
      expect(await turn.json()).toMatchObject({
        status: 'completed',
        reply: expect.stringContaining('EJ8012'),
      });
      expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(200);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited).toBe(0);
  });
});
