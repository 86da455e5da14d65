/**
 * `flowstack approve` from a new process answers a plan's booking approval as the process that asked
 * would (issue 31, item 10): the booking runs once and the plan finishes, with no "Call id 'call_1' was
 * already used" failure from the new process's model numbering its calls again.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

describe('flowstack approve in a new process', () => {
  it('books the plan’s flight once and finishes the plan', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flowstack-cli-approve-')), 'cli.db');
    const asked = fakeIo();
    const request = 'Plan a trip to Lisbon on 2026-12-05 and book the cheapest flight for Ada Lovelace';
    expect(
      await runCli(['run', 'travel', request, '--db', path, '--thread', 'trip', '--json'], asked.io),
    ).toBe(exitCodes.waiting);
    expect(JSON.parse(asked.out[0] as string)).toMatchObject({ status: 'suspended' });
    expect(JSON.parse(asked.out[0] as string).reply).toContain(
      'Book a flight (Flight: "TP1351", Passenger: "Ada Lovelace")?',
    );

    const approved = fakeIo();
    const code = await runCli(['approve', 'trip', '--db', path, '--json'], approved.io);
    const turn = JSON.parse(approved.out.at(-1) as string);
    expect(JSON.stringify(turn)).not.toContain('already used');
    expect(code).toBe(exitCodes.ok);
    expect(turn.status).toBe('completed');
    // Before the fix the booking step failed on its call id and the plan said "Nothing was booked."
    expect(turn.reply).toContain('Booked TP1351 for Ada Lovelace; your reference is BK0001.');
  });
});
