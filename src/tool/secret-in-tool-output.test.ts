/**
 * DESIGN.md invariant 8 end to end: secrets a tool returns (and one the user types) appear nowhere
 * after a real turn through `createAgent` on a SQLite file — not in what the model is shown (skill steps
 * and the simulation), not in the journal, the audit log, error texts, the saved snapshot and history,
 * the observations (returned and published), the stored full result of a cut output, nor anywhere in
 * the database files' bytes.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createAgent } from '../agent/index.js';
import { defineFlow } from '../flow/index.js';
import { secrets } from '../redact/fixtures/fake-secrets.js';
import type { Observation } from '../spec/index.js';
import { createSqliteStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { defineTool } from './define-tool.js';
import { readToolResult } from './read-tool-result.js';

const privateKey = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEpAIBAAKCAQEAx3Jq8Rk2mVtQn7LpZs4W'.repeat(1)}\n${'Yd9Hk2LqP0sXv8TzR4mN6bJcQ1wE5uA3oF7i'}\n-----END RSA PRIVATE KEY-----`;
const injected = {
  openai: secrets.openaiProject,
  anthropic: secrets.anthropic,
  aws: secrets.awsSecret,
  stripe: secrets.stripeLive,
  github: secrets.githubFineGrained,
  jwt: secrets.jwt,
  dbPassword: 'Tr0ub4dor-and-3-staging',
  keyBody: 'Yd9Hk2LqP0sXv8TzR4mN6bJcQ1wE5uA3oF7i',
};
const userSecret = secrets.slackBot;
const tailSentinel = 'END-OF-CONFIG-DUMP';

/** Every tool result text the model was shown in this call's prompt. */
function shownToolResults(options: LanguageModelV3CallOptions): string {
  const texts: string[] = [];
  for (const message of options.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result' && 'value' in part.output) texts.push(String(part.output.value));
  }
  return texts.join('\n');
}

describe('a secret in a tool output', () => {
  it('appears nowhere: model context, simulation, journal, audit, errors, snapshot, history, observations, stored result, file bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowstack-secrets-'));
    const path = join(dir, 'agent.db');
    const rawOutputs: string[] = [];

    const readConfig = defineTool({
      name: 'read_config',
      description: 'Dumps the service configuration.',
      input: z.object({}),
      capability: 'controlled',
      idempotent: true,
      execute: () => {
        const output = {
          OPENAI_API_KEY: injected.openai,
          note: `fallback key ${injected.anthropic}`,
          AWS_SECRET_ACCESS_KEY: injected.aws,
          billing: `stripe ${injected.stripe}`,
          ci: `token ${injected.github}`,
          session: `Authorization: Bearer ${injected.jwt}`,
          database: `postgres://app:${injected.dbPassword}@db.internal:5432/app`,
          tls: privateKey,
          // Long enough to be cut in the context; the end must survive in the stored result.
          history: `${'rotation log entry; '.repeat(300)}${tailSentinel}`,
        };
        rawOutputs.push(JSON.stringify(output));
        return output;
      },
    });
    const pingService = defineTool({
      name: 'ping_service',
      description: 'Checks the billing service.',
      input: z.object({}),
      execute: () => {
        throw new Error(`401 from https://billing.internal with key ${injected.stripe}`);
      },
    });
    const rotateKey = defineTool({
      name: 'rotate_key',
      description: 'Rotates the service key.',
      input: z.object({ reason: z.string() }),
      capability: 'restricted',
      execute: ({ reason }) => `rotated; reason recorded: ${reason.slice(0, 2_000)}`,
    });
    const flow = defineFlow({
      name: 'audit_config',
      intent: 'read',
      description: 'Audit the service configuration.',
      slots: [],
      tools: ['read_config', 'ping_service', 'rotate_key'],
      skill: 'Read the configuration, check the billing service, rotate the key, and report.',
    });
    const model = createScriptedModel({
      steps: [
        { match: { phase: 'predict' }, json: { flow: 'audit_config', slots: {} } },
        {
          match: { phase: 'skill' },
          toolCalls: [
            { toolName: 'read_config', input: {} },
            { toolName: 'ping_service', input: {} },
          ],
        },
        // The model repeats everything it was shown: into a tool's arguments …
        {
          match: { phase: 'skill' },
          respond: (options) => ({
            toolCalls: [{ toolName: 'rotate_key', input: { reason: shownToolResults(options) } }],
          }),
        },
        // … into the simulation it is asked for …
        {
          match: { phase: 'simulate' },
          respond: (options) => ({
            text: `Predicted from: ${JSON.stringify(options.prompt).slice(0, 3_000)}`,
          }),
        },
        // … and into its final answer.
        {
          match: { phase: 'skill' },
          respond: (options) => ({
            toolCalls: [
              {
                toolName: 'finish_skill',
                input: { outcome: 'success', data: { text: `Report: ${shownToolResults(options)}` } },
              },
            ],
          }),
        },
      ],
    });
    const store = createSqliteStore({ path });
    const agent = createAgent({
      model,
      flows: [flow],
      tools: [readConfig, pingService, rotateKey],
      store,
      ids: createSequentialIdGenerator(),
    });
    const published: Observation[] = [];
    agent.subscribe((o) => published.push(o));

    const turn = await agent.send({
      threadId: 'ops',
      text: `audit the config; my slack token is ${userSecret}`,
      principal: 'alice',
    });
    const view = await agent.readThread('ops');
    const journal = await store.listJournal('ops');
    const readResult = journal.find((e) => e.toolName === 'read_config');
    const stored = await readToolResult({ store, ref: readResult?.key ?? '', threadId: 'ops' });
    await agent.close();

    // The tools really returned the secrets, and the turn really went through every stage.
    for (const secret of Object.values(injected)) expect(rawOutputs.join()).toContain(secret);
    expect(turn.status).toBe('completed');
    expect(model.calls.map((c) => c.phase)).toEqual(['predict', 'skill', 'skill', 'simulate', 'skill']);
    // Model answers are journaled too (a resumed turn replays them); here only the tool calls matter.
    // The first step's two calls run side by side, so their rows may start in either order.
    const toolRows = journal.filter((e) => e.toolName !== '(model)').map((e) => [e.toolName, e.status]);
    expect(toolRows.sort()).toEqual([
      ['ping_service', 'failed'],
      ['read_config', 'succeeded'],
      ['rotate_key', 'succeeded'],
    ]);

    const db = new Database(path, { readonly: true });
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .all() as { name: string }[];
    const rows = Object.fromEntries(
      tables.map(({ name }) => [name, db.prepare(`SELECT * FROM ${name}`).all()]),
    );
    db.close();
    expect(Object.keys(rows)).toEqual(
      expect.arrayContaining(['threads', 'history', 'observations', 'journal', 'audit']),
    );
    expect((rows.audit as unknown[]).length).toBe(2); // read_config (controlled) and rotate_key (restricted)

    const places: Record<string, string> = {
      'model context (every prompt, skill and simulation)': JSON.stringify(model.calls.map((c) => c.prompt)),
      'turn result (reply, stack, observations)': JSON.stringify(turn),
      'published observations': JSON.stringify(published),
      'thread view (snapshot, messages)': JSON.stringify(view),
      'journal rows': JSON.stringify(rows.journal),
      'audit rows': JSON.stringify(rows.audit),
      'snapshot rows': JSON.stringify(rows.threads),
      'history rows (tool calls, results, errors, messages)': JSON.stringify(rows.history),
      'observation rows': JSON.stringify(rows.observations),
      'every table': JSON.stringify(rows),
      'stored full result': JSON.stringify(stored),
      'database file bytes': ['', '-wal', '-shm']
        .map((suffix) => (existsSync(path + suffix) ? readFileSync(path + suffix).toString('latin1') : ''))
        .join(),
    };
    for (const [place, text] of Object.entries(places)) {
      for (const [name, secret] of Object.entries({ ...injected, user: userSecret }))
        expect(text.includes(secret), `${name} secret in ${place}`).toBe(false);
    }

    // What was there instead: markers, the error, the cut, and the full (redacted) result by reference.
    expect(places['model context (every prompt, skill and simulation)']).toContain('[REDACTED:openai-key]');
    expect(places['history rows (tool calls, results, errors, messages)']).toContain(
      '401 from https://billing.internal with key [REDACTED:stripe-key]',
    );
    expect(places['audit rows']).toContain('[REDACTED:');
    expect(places['audit rows']).toContain('[simulation] Predicted from:');
    expect(turn.reply).toContain('Report:');
    expect(turn.reply).toContain('characters omitted');
    expect(stored?.text).toContain(tailSentinel);
    expect(stored?.text).toContain('[REDACTED:private-key]');
  });
});
