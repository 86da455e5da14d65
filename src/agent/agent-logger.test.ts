/**
 * The `logger` option end to end: the warnings a turn writes (a model call retried, a tool that timed
 * out) reach the logger given, as structured, redacted records; a pino-shaped logger works as it is; and
 * without one, warnings go to standard error while info stays quiet.
 */
import { APICallError } from '@ai-sdk/provider';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ConfigurationError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { createManualClock } from '../loop/fixtures/manual-clock.js';
import type { Logger } from '../spec/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import { defineTool } from '../tool/index.js';
import { createSequentialIdGenerator } from '../util/index.js';
import { createAgent } from './create-agent.js';
import type { AgentOptions } from './index.js';

const githubToken = `ghp_${'a1B2c3D4e5'.repeat(3)}x`;

const statusFlow = defineFlow({
  name: 'check_status',
  intent: 'read',
  description: 'Check the status of the service.',
  slots: [],
  tools: ['read_status'],
  skill: 'Read the status and report it.',
});

/** Never answers: its 50 ms timeout always fires. */
const hangingStatus = defineTool({
  name: 'read_status',
  description: 'The status of the service.',
  input: z.object({}),
  timeoutMs: 50,
  execute: () => new Promise<string>(() => undefined),
});

const finishStep: ScriptStep = {
  match: { phase: 'skill' },
  toolCalls: [{ toolName: 'finish_skill', input: { outcome: 'success', data: { text: 'Done.' } } }],
};

const rateLimited = () =>
  new APICallError({
    message: `Rate limit reached for key ${githubToken}`,
    url: 'https://models.example/v1/chat',
    requestBodyValues: {},
    statusCode: 429,
    isRetryable: true,
  });

/** A turn that retries its model call once, then calls the hanging tool, then finishes. */
const script: ScriptStep[] = [
  { match: { phase: 'predict' }, json: { flow: 'check_status', slots: {} } },
  { match: { phase: 'skill' }, error: rateLimited() },
  { match: { phase: 'skill' }, toolCalls: [{ toolName: 'read_status', input: {} }] },
  finishStep,
];

interface Written {
  level: string;
  record: Record<string, unknown>;
  message: string | undefined;
}

/** A logger shaped as pino's: `(record, message)` per level and `child(bindings)` merging its bindings. */
function createPinoShapedLogger(written: Written[], bindings: Record<string, unknown> = {}): Logger {
  const level =
    (name: string) =>
    (first: object | string, message?: string): void => {
      const record = typeof first === 'string' ? {} : first;
      written.push({
        level: name,
        record: { ...bindings, ...record },
        message: typeof first === 'string' ? first : message,
      });
    };
  return {
    debug: level('debug'),
    info: level('info'),
    warn: level('warn'),
    error: level('error'),
    child: (more) => createPinoShapedLogger(written, { ...bindings, ...more }),
  };
}

function setup(options: Partial<AgentOptions> = {}) {
  const clock = createManualClock();
  const agent = createAgent({
    model: createScriptedModel({ steps: script }),
    flows: [statusFlow],
    tools: [hangingStatus],
    store: createMemoryStore(),
    ids: createSequentialIdGenerator(),
    clock,
    random: () => 0,
    toolPipeline: { simulate: undefined },
    ...options,
  });
  const send = () => clock.settle(agent.send({ threadId: 'thread-1', text: 'Is the service up?' }));
  return { agent, send };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('createAgent({ logger })', () => {
  it('receives the warning of a retried model call, with the thread, turn, flow and the redacted error', async () => {
    const written: Written[] = [];
    const { agent, send } = setup({ logger: createPinoShapedLogger(written) });
    const turn = await send();
    expect(turn.status).toBe('completed');
    const retry = written.find((w) => w.message === 'A model call failed; retrying after a wait.');
    expect(retry).toMatchObject({
      level: 'warn',
      record: {
        threadId: 'thread-1',
        turnId: turn.turnId,
        flow: 'check_status',
        attempt: 1,
        delayMs: 1_000,
        err: { type: 'AI_APICallError', message: expect.stringContaining('[REDACTED:github-token]') },
      },
    });
    expect(JSON.stringify(written)).not.toContain(githubToken);
    await agent.close();
  });

  it('receives the warning of a tool call whose timeout fired, naming the tool', async () => {
    const written: Written[] = [];
    const { agent, send } = setup({ logger: createPinoShapedLogger(written) });
    const turn = await send();
    const timedOut = written.filter((w) => w.message === 'A tool call timed out.');
    expect(timedOut).toEqual([
      {
        level: 'warn',
        record: expect.objectContaining({
          threadId: 'thread-1',
          turnId: turn.turnId,
          flow: 'check_status',
          tool: 'read_status',
          timeoutMs: 50,
        }),
        message: 'A tool call timed out.',
      },
    ]);
    await agent.close();
  });

  it('works with a logger that has no child: the bindings are merged into each record', async () => {
    const written: Written[] = [];
    const { child: _child, ...withoutChild } = createPinoShapedLogger(written);
    const { agent, send } = setup({ logger: withoutChild });
    await send();
    expect(written.find((w) => w.message === 'A tool call timed out.')?.record).toMatchObject({
      flow: 'check_status',
      tool: 'read_status',
    });
    await agent.close();
  });

  it('writes warnings to standard error by default and nothing at info', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const { agent, send } = setup();
    await send();
    const lines = warn.mock.calls.map((args) => String(args[0]));
    expect(
      lines.some((line) => line.startsWith('flowstack: A model call failed; retrying after a wait.')),
    ).toBe(true);
    expect(lines.some((line) => line.startsWith('flowstack: A tool call timed out.'))).toBe(true);
    expect(lines.join('\n')).not.toContain(githubToken);
    expect(info).not.toHaveBeenCalled();
    expect(debug).not.toHaveBeenCalled();
    await agent.close();
  });

  it('refuses a logger that lacks a level, naming what is missing', () => {
    const make = () =>
      createAgent({
        model: createScriptedModel({ steps: [] }),
        flows: [statusFlow],
        tools: [hangingStatus],
        store: createMemoryStore(),
        logger: { warn: () => undefined, error: () => undefined } as unknown as Logger,
      });
    expect(make).toThrow(ConfigurationError);
    expect(make).toThrow(/logger has no debug, info method/);
  });
});
