/**
 * DESIGN.md invariant 8 in PostgreSQL (issue 31's acceptance): a conversation whose tool arguments, whose
 * answer to a blocking tool and whose call held for approval hold secrets leaves none of them in any row of
 * any table of the store's schema — while the approval waits and after the approved call ran with the
 * real values. The same scan over the SQLite folder is `src/agent/secrets-on-disk.test.ts`.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createSecretDeploy,
  deployArguments,
  rawSecrets,
  vaultAnswer,
} from '../../agent/fixtures/secret-deploy.js';
import { createAgent } from '../../agent/index.js';
import { secrets } from '../../redact/fixtures/fake-secrets.js';
import { createScriptedModel } from '../../test/index.js';
import { describeWithService, serviceAvailable } from '../../test/require-service.js';
import { defineTool } from '../../tool/index.js';
import { createPostgresStore } from './index.js';

const url = process.env.FLOWSTACK_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const available = await serviceAvailable('postgres', url);
const schema = `flowstack_test_secrets_${randomBytes(4).toString('hex')}`;

/** The conversation's secrets, and the one in the call held for approval. */
const raw = { ...rawSecrets, held: secrets.gitlab };

describeWithService({ kind: 'postgres', url, available, describe }, 'secrets at rest in PostgreSQL', () => {
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

  function expectNoSecret(dump: string, when: string): void {
    // JSON escapes a newline; the key line of the PEM key has none, the others are single-line.
    for (const [name, secret] of Object.entries(raw))
      expect(dump.includes(secret), `${name} in a table ${when}`).toBe(false);
  }

  it('leaves no raw secret in any table, while an approval waits and after the call ran', async () => {
    const rotated: unknown[] = [];
    const rotate = defineTool({
      name: 'rotate_secret',
      description: 'Stores a new deploy token.',
      input: z.object({ token: z.string() }),
      capability: 'restricted',
      execute: (input) => {
        rotated.push(input);
        return 'stored';
      },
    });
    const { ran, tools, flow, steps } = createSecretDeploy([rotate]);
    const model = createScriptedModel({
      steps: steps([
        { match: { phase: 'skill' }, toolCalls: [{ toolName: 'rotate_secret', input: { token: raw.held } }] },
      ]),
    });
    const store = createPostgresStore({ connectionString: url, schema });
    const agent = createAgent({
      model,
      flows: [flow],
      tools,
      store,
      toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
    });
    const first = await agent.send({ threadId: 'ops', text: 'ship it' });
    const vault = first.suspensions?.[0];
    expect(vault).toMatchObject({ kind: 'feedback' });
    const held = await agent.resume({
      threadId: 'ops',
      suspensionId: vault?.id ?? '',
      feedback: vaultAnswer,
    });
    const approval = held.suspensions?.[0];
    expect(approval).toMatchObject({ kind: 'approval' });
    expectNoSecret(await dumpSchema(), 'while the approval waits');

    const done = await agent.resume({
      threadId: 'ops',
      suspensionId: approval?.id ?? '',
      feedback: { decision: 'approve' },
    });
    await agent.close();
    expect(done.status).toBe('completed');
    // The tools ran with the real values.
    expect(ran).toEqual([deployArguments]);
    expect(rotated).toEqual([{ token: raw.held }]);
    const dump = await dumpSchema();
    expect(dump).toContain('[REDACTED:');
    expectNoSecret(dump, 'after the call ran');
  });
});
