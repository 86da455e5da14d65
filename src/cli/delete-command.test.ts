/**
 * `flowstack delete <thread>` (docs/decisions/0076): the thread a `run` left is gone from the database
 * file afterwards — `show` no longer finds it and no byte of its messages is left in the file — while
 * another principal cannot delete it.
 */
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io.js';
import { exitCodes } from './exit-codes.js';
import { runCli } from './run-cli.js';

function fakeIo() {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    errWrite: (text) => err.push(text),
    interactive: false,
    env: {},
    stdin: Readable.from([]),
    stdout: new PassThrough(),
    stopped: new Promise(() => undefined),
  };
  return { io, out, err };
}

describe('flowstack delete', () => {
  it('deletes a thread whole from the database folder; another principal gets "no thread"', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flowstack-cli-delete-')), 'cli.db');
    const bytes = () =>
      readdirSync(dirname(path))
        .filter((name) => name.startsWith('cli.db'))
        .map((name) => readFileSync(join(dirname(path), name)).toString('latin1'))
        .join('\n');
    const message = 'flights to Reykjavik on 2026-12-05';
    expect(await runCli(['run', message, '--db', path, '--thread', 'trip'], fakeIo().io)).toBe(exitCodes.ok);
    expect(
      await runCli(
        ['run', 'flights to Lisbon on 2026-12-06', '--db', path, '--thread', 'other'],
        fakeIo().io,
      ),
    ).toBe(exitCodes.ok);
    expect(bytes()).toContain('Reykjavik');

    const foreign = fakeIo();
    expect(await runCli(['delete', 'trip', '--db', path, '--principal', 'eve'], foreign.io)).toBe(
      exitCodes.notFound,
    );
    expect(foreign.err.join('')).toContain("no thread 'trip'");

    const deleted = fakeIo();
    expect(await runCli(['delete', 'trip', '--db', path, '--json'], deleted.io)).toBe(exitCodes.ok);
    expect(JSON.parse(deleted.out[0] as string)).toEqual({ threadId: 'trip', fileSnapshots: 0 });

    const show = fakeIo();
    expect(await runCli(['show', 'trip', '--db', path], show.io)).toBe(exitCodes.notFound);
    expect(await runCli(['delete', 'trip', '--db', path], fakeIo().io)).toBe(exitCodes.notFound);
    expect(await runCli(['show', 'other', '--db', path], fakeIo().io)).toBe(exitCodes.ok);
    expect(bytes()).not.toContain('Reykjavik');
    expect(bytes()).toContain('Lisbon');
  });
});
