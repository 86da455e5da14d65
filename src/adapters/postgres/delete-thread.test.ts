/**
 * Deleting a thread from PostgreSQL (docs/decisions/0076): after a conversation through the agent, a dump
 * of every table of the store's schema holds nothing the thread said; the other thread's rows stay.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../../agent/index.js';
import { defineFlow } from '../../flow/index.js';
import { createScriptedModel } from '../../test/index.js';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { defineTool } from '../../tool/index.js';
import { createPostgresStore } from './index.js';

const url = process.env.FLOWSTACK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const available = await serviceAvailable('postgres', url);
const schema = `flowstack_test_delete_${randomBytes(4).toString('hex')}`;

describeWithService({ kind: 'postgres', url, available, describe }, 'deleting a thread in PostgreSQL', () => {
  const admin = new pg.Pool({ connectionString: url, max: 1 });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  /** Every row of every table of the schema, as JSON text. */
  async function dumpSchema(): Promise<string> {
    const { rows: tables } = await admin.query<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = $1',
      [schema],
    );
    const dumps: string[] = [];
    for (const { name } of tables) {
      const { rows } = await admin.query<{ row: string }>(
        `SELECT row_to_json(t)::text AS row FROM "${schema}"."${name}" t`,
      );
      dumps.push(...rows.map((r) => r.row));
    }
    return dumps.join('\n');
  }

  it('leaves no row holding what the thread said; the audit rows keep only who ran what', async () => {
    const note = defineTool({
      name: 'save_note',
      description: 'Saves a note.',
      input: z.object({ text: z.string() }),
      capability: 'controlled',
      execute: ({ text }) => ({ saved: text }),
    });
    const flow = defineFlow({
      name: 'notes',
      intent: 'prepare',
      description: 'Save a note.',
      slots: [],
      tools: ['save_note'],
      skill: 'Save the note.',
    });
    const saveStep = (word: string) => ({
      match: {
        phase: 'skill' as const,
        prompt: (call: { prompt: { role: string }[] }) =>
          JSON.stringify(call.prompt).includes(word) && !call.prompt.some((m) => m.role === 'tool'),
      },
      toolCalls: [{ toolName: 'save_note', input: { text: `${word} saved` } }],
      repeat: true,
    });
    const store = createPostgresStore({ connectionString: url, schema });
    const agent = createAgent({
      model: createScriptedModel({
        steps: [
          { match: { phase: 'predict' }, json: { flow: 'notes', slots: {} }, repeat: true },
          saveStep('QUINCE-MARMALADE-77'),
          saveStep('PANTRY-PLUM-13'),
          { match: { phase: 'skill' }, text: 'Saved.', repeat: true },
        ],
      }),
      flows: [flow],
      tools: [note],
      store,
      toolPipeline: { simulate: undefined },
    });
    await agent.send({ threadId: 'kitchen', text: 'note QUINCE-MARMALADE-77', principal: 'ana' });
    await agent.send({ threadId: 'pantry', text: 'note PANTRY-PLUM-13', principal: 'ana' });
    expect(await dumpSchema()).toContain('QUINCE-MARMALADE-77');

    await agent.deleteThread({ threadId: 'kitchen', principal: 'ana' });
    await agent.close();

    const dump = await dumpSchema();
    expect(dump).not.toContain('QUINCE-MARMALADE-77');
    expect(dump).toContain('PANTRY-PLUM-13');
    const { rows } = await admin.query<{ input_summary: string }>(
      `SELECT input_summary FROM "${schema}".audit WHERE thread_id = 'kitchen'`,
    );
    expect(rows.length).toBeGreaterThan(0);
  });
});
