// The command line's progress on stderr (issue 34): the spinner cleared before a reply is printed, the
// plan printed once (redrawn in place on a terminal), and plain progress lines when stderr is a pipe.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { CliIo } from './cli-io.js';
import { exitCodes } from './exit-codes.js';
import { runCli } from './run-cli.js';

type Write = { to: 'out' | 'err'; text: string };

const controlSequence = '\x1b';
const clearLine = `\r${controlSequence}[2K`;
/** The cursor moved up over the plan, which is cleared to be drawn again. */
const isRedraw = (text: string) =>
  text.startsWith(`${controlSequence}[`) && text.endsWith(`A\r${controlSequence}[J`);

/** Stdout and stderr in the order they were written, as one terminal shows them. */
function terminal(options: { input?: string[]; interactive: boolean }) {
  const writes: Write[] = [];
  // Whether a spinner frame is on the screen's last line (drawn and not yet cleared).
  let spinnerShown = false;
  const printedOverSpinner: string[] = [];
  const io: CliIo = {
    out: (text) => {
      if (spinnerShown) printedOverSpinner.push(text);
      writes.push({ to: 'out', text });
    },
    err: (text) => {
      if (spinnerShown) printedOverSpinner.push(text);
      writes.push({ to: 'err', text });
    },
    errWrite: (text) => {
      spinnerShown = text.startsWith(clearLine) && text.length > clearLine.length;
      writes.push({ to: 'err', text });
    },
    interactive: options.interactive,
    env: {},
    stdin: Readable.from((options.input ?? []).map((line) => `${line}\n`)),
    stdout: new PassThrough(),
    stopped: new Promise(() => undefined),
  };
  return { io, writes, printedOverSpinner };
}

const db = () => join(mkdtempSync(join(tmpdir(), 'flowstack-cli-')), 'cli.db');
const plan = 'Plan a trip to Lisbon on 2026-12-05 and book the cheapest flight for Ada Lovelace';

describe('the command line while the agent works', () => {
  it('on a terminal: clears the spinner before every reply, and redraws the plan in place', async () => {
    const chat = terminal({ interactive: true, input: ['flights to Lisbon on 2026-12-05', plan, 'yes', ''] });
    expect(await runCli(['chat', 'travel', '--db', db(), '--thread', 't1'], chat.io)).toBe(exitCodes.ok);
    // Spinner frames were drawn, and no line was ever printed after one that was not cleared.
    expect(chat.writes.some((w) => w.text.startsWith(`${clearLine}⠋ `))).toBe(true);
    expect(chat.printedOverSpinner).toEqual([]);
    const replies = chat.writes.filter((w) => w.to === 'out' && w.text.startsWith('agent>'));
    expect(replies).toHaveLength(3);
    // The plan's block: drawn once, then each change goes up over it and draws it again.
    const headers = chat.writes
      .map((w, index) => ({ ...w, index }))
      .filter((w) => w.to === 'err' && w.text.startsWith('Plan'));
    expect(headers.length).toBeGreaterThan(1);
    headers.slice(1).forEach((header, n) => {
      const between = chat.writes.slice((headers[n]?.index ?? 0) + 1, header.index);
      expect(between.some((w) => isRedraw(w.text))).toBe(true);
    });
  });

  it('in a pipe: the plan once, then one line per step that moved', async () => {
    const chat = terminal({ interactive: false, input: [plan, 'yes', ''] });
    expect(await runCli(['chat', 'travel', '--db', db(), '--thread', 't2'], chat.io)).toBe(exitCodes.ok);
    const err = chat.writes.filter((w) => w.to === 'err').map((w) => w.text);
    expect(err.filter((line) => line.startsWith('Plan'))).toHaveLength(1);
    expect(err).toContain('  ✔ Find flights to Lisbon on 2026-12-05 (completed)');
    expect(err.some((line) => line.includes('\x1b['))).toBe(false);
  });

  it('`run data-analysis` says what it does on stderr, and prints only the result on stdout', async () => {
    const run = terminal({ interactive: false });
    expect(await runCli(['run', 'data-analysis', 'chart revenue by region', '--db', db()], run.io)).toBe(
      exitCodes.ok,
    );
    const err = run.writes.filter((w) => w.to === 'err').map((w) => w.text);
    expect(err).toEqual(
      expect.arrayContaining(['Thinking (make chart)…', 'Running chart data…', '✔ chart data']),
    );
    const out = run.writes.filter((w) => w.to === 'out').map((w) => w.text);
    expect(out[0]).toContain('agent> revenue by region');
    expect(out.join('\n')).toContain('east');
    expect(out.join('\n')).not.toContain('Running');
  });
});
