/**
 * DESIGN.md invariant 8 on disk: a conversation whose tool arguments and whose answer to a blocking tool
 * hold secrets leaves none of them in any byte of the SQLite store's folder (the database, its -wal and
 * -shm files), and flowstack creates that folder 0700 and the database 0600.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineFlow } from '../flow/index.js';
import { secrets } from '../redact/fixtures/fake-secrets.js';
import { createSqliteStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { createSecretDeploy, deployArguments, rawSecrets, vaultAnswer } from './fixtures/secret-deploy.js';
import { createAgent } from './index.js';

describe('secrets in tool arguments and answers', () => {
  it('leave no byte on disk, in a folder and file only the owner can read', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'flowstack-disk-')), 'state', 'db');
    const path = join(dir, 'agent.db');
    const { ran, tools, flow, steps } = createSecretDeploy();
    const model = createScriptedModel({ steps: steps() });
    const store = createSqliteStore({ path });
    const agent = createAgent({
      model,
      flows: [flow],
      tools,
      store,
      toolPipeline: { simulate: undefined },
    });
    const first = await agent.send({ threadId: 'ops', text: 'ship it' });
    const question = first.suspensions?.[0];
    expect(question).toMatchObject({ kind: 'feedback' });
    const done = await agent.resume({
      threadId: 'ops',
      suspensionId: question?.id ?? '',
      feedback: vaultAnswer,
    });
    await agent.close();

    // The tool really ran with the real arguments, and the turn went through.
    expect(ran).toEqual([deployArguments]);
    expect(done.status).toBe('completed');
    const db = new Database(path, { readonly: true });
    const history = db.prepare("SELECT data FROM history WHERE kind = 'tool-call'").all() as {
      data: string;
    }[];
    db.close();
    expect(history.map((row) => JSON.parse(row.data).toolName)).toContain('deploy');
    expect(history.map((row) => row.data).join()).toContain('[REDACTED:');

    const files = readdirSync(dir);
    expect(files).toContain('agent.db');
    const bytes = files.map((name) => readFileSync(join(dir, name)).toString('latin1')).join('\n');
    for (const [name, secret] of Object.entries(rawSecrets)) {
      expect(bytes.includes(secret), `${name} in the store's files`).toBe(false);
    }

    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const name of files) expect(statSync(join(dir, name)).mode & 0o777, name).toBe(0o600);
    expect(existsSync(`${path}-wal`) || existsSync(path)).toBe(true);
  });
});

describe('an approved call after its history row was redacted', () => {
  it('runs with the real arguments, taken from the held call, while the history row stays redacted', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-approve-'));
    const path = join(dir, 'agent.db');
    const ran: unknown[] = [];
    const rotate = defineTool({
      name: 'rotate_secret',
      description: 'Stores a new deploy token.',
      input: z.object({ token: z.string() }),
      capability: 'restricted',
      execute: (input) => {
        ran.push(input);
        return 'stored';
      },
    });
    const flow = defineFlow({
      name: 'rotate',
      intent: 'transform',
      description: 'Rotate the deploy token.',
      slots: [],
      tools: ['rotate_secret'],
      skill: 'Store the new token.',
    });
    const model = createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'rotate', slots: {} } },
        {
          match: { phase: 'skill' },
          toolCalls: [{ toolName: 'rotate_secret', input: { token: secrets.githubClassic } }],
        },
        {
          match: { phase: 'skill' },
          toolCalls: [
            { toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'Rotated.' } } },
          ],
        },
      ],
    });
    const store = createSqliteStore({ path });
    const agent = createAgent({
      model,
      flows: [flow],
      tools: [rotate],
      store,
      toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
    });
    const first = await agent.send({ threadId: 'ops', text: 'rotate the token' });
    expect(first.suspensions?.[0]).toMatchObject({ kind: 'approval' });
    const done = await agent.resume({
      threadId: 'ops',
      suspensionId: first.suspensions?.[0]?.id ?? '',
      feedback: { decision: 'approve' },
    });
    const history = await store.readHistory('ops');
    await agent.close();

    expect(done.status).toBe('completed');
    expect(ran).toEqual([{ token: secrets.githubClassic }]);
    const calls = history.filter((row) => row.kind === 'tool-call').map((row) => row.data);
    expect(calls.join()).toContain('[REDACTED:github-token]');
    expect(calls.join()).not.toContain(secrets.githubClassic);
  });
});
