// `flowstack show <thread> --frame <tableId> --page <n>` (issue 32 item 5): further pages of a display
// frame, read from the thread's database.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import { createSqliteStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import type { CliIo } from './cli-io.js';
import { exitCodes } from './exit-codes.js';
import { runCli } from './run-cli.js';

function bufferIo() {
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
    stopped: new Promise(() => {}),
  };
  return { io, out, err };
}

/** A thread whose one turn left a frame of 1300 rows (its first 512 in the frame). */
async function threadWithTable(path: string): Promise<string> {
  const rows = Array.from({ length: 1300 }, (_, n) => ({ n }));
  const store = createSqliteStore({ path });
  const agent = createAgent({
    model: createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'list_all', slots: {} } },
        {
          match: { phase: 'skill' },
          toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { rows } } }],
        },
      ],
    }),
    flows: [
      defineFlow({
        name: 'list_all',
        intent: 'read',
        description: 'List every row.',
        tools: ['list_rows'],
      }),
    ],
    tools: [
      defineTool({
        name: 'list_rows',
        description: 'Lists rows.',
        input: z.object({}),
        execute: () => ({}),
      }),
    ],
    store,
    ids: createSequentialIdGenerator(),
  });
  const turn = await agent.send({ threadId: 'f1', text: 'list all rows' });
  await agent.close();
  return turn.frames[0]?.tableId ?? '';
}

describe('flowstack show --frame', () => {
  it('prints a further page of a frame’s rows, and refuses a page or table that is not there', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'flowstack-frame-')), 'frames.db');
    const tableId = await threadWithTable(path);
    expect(tableId).not.toBe('');

    const json = bufferIo();
    const args = ['show', 'f1', '--db', path, '--frame', tableId];
    expect(await runCli([...args, '--page', '3', '--json'], json.io)).toBe(exitCodes.ok);
    const page = JSON.parse(json.out.join(''));
    expect(page).toMatchObject({ tableId, page: 3, pages: 3, totalRows: 1300 });
    expect(page.rows).toHaveLength(276);
    expect(page.rows[0]).toEqual({ n: 1024 });

    const text = bufferIo();
    expect(await runCli([...args, '--page', '2'], text.io)).toBe(exitCodes.ok);
    expect(text.out[0]).toBe(`Table ${tableId}, page 2 of 3 (rows 513–1024 of 1300)`);
    expect(text.out[1]).toBe('{"n":512}');

    const beyond = bufferIo();
    expect(await runCli([...args, '--page', '4'], beyond.io)).toBe(exitCodes.usage);
    const missing = bufferIo();
    expect(await runCli(['show', 'f1', '--db', path, '--frame', 'nope'], missing.io)).toBe(
      exitCodes.notFound,
    );
  });
});
