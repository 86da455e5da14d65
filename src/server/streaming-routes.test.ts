import {
  AbstractChat,
  type ChatInit,
  type ChatState,
  DefaultChatTransport,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgent } from '../agent/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel, type ScriptStep } from '../test/index.js';
import {
  api,
  readServerSentEvents,
  startTestServer,
  storedThreadId,
  tokens,
} from './fixtures/server-fixture.js';
import { createTransferTool, payBills } from './fixtures/transfer-agent.js';

/**
 * The chat class of `useChat`, without React: the AI SDK's own `AbstractChat` on a plain array, as
 * `@ai-sdk/react` runs it on React state. Nothing of the protocol is parsed here.
 */
class ArrayChat extends AbstractChat<UIMessage> {
  constructor(init: Omit<ChatInit<UIMessage>, 'messages'>) {
    const state: ChatState<UIMessage> = {
      status: 'ready',
      error: undefined,
      messages: [],
      pushMessage: (message) => state.messages.push(message),
      popMessage: () => state.messages.pop(),
      replaceMessage: (index, message) => {
        state.messages[index] = message;
      },
      snapshot: (thing) => structuredClone(thing),
    };
    super({ ...init, state });
  }
}

const paid: string[] = [];
const transfer = createTransferTool(paid);

const reply = 'Paid Ana 10 euros, as you approved.';
const steps: ScriptStep[] = [
  { match: { phase: 'predict' }, json: { flow: 'pay_bills', slots: {} }, repeat: true },
  {
    match: { phase: 'skill', prompt: (call) => !call.prompt.some((m) => m.role === 'tool') },
    toolCalls: [{ toolName: 'transfer', input: { to: 'ana', amount: 10 }, callId: 'pay-ana' }],
  },
  {
    match: { phase: 'skill' },
    repeat: true,
    // A declined transfer comes back to the model as the call's result, with the person's reason.
    respond: (call) => ({
      text: JSON.stringify(call.prompt).includes('not this month') ? 'Nothing was paid.' : reply,
    }),
  },
];

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
  paid.length = 0;
});

async function start(options: { stream?: boolean } = {}) {
  const agent = createAgent({
    ...(options.stream ? { stream: true } : {}),
    model: createScriptedModel({ steps }),
    flows: [payBills],
    tools: [transfer],
    store: createMemoryStore(),
    toolPipeline: { simulate: undefined, capabilities: { approvalFrom: 'restricted' } },
  });
  const server = await startTestServer({ agent });
  close = server.close;
  return { ...server, agent };
}

describe('POST /v1/chat (AI SDK UI message stream)', () => {
  it('completes a conversation with an approval through the AI SDK chat client', async () => {
    const { url, agent } = await start();
    const { chat, finished, nextFinish } = openChat(url, 'chat-1');

    await chat.sendMessage({ text: 'pay ana 10 euros' });
    expect(chat.error).toBeUndefined();
    const asking = chat.lastMessage;
    expect(asking?.role).toBe('assistant');
    const tool = asking?.parts.find(isToolUIPart);
    expect(tool).toMatchObject({
      type: 'tool-transfer',
      toolCallId: 'pay-ana',
      state: 'approval-requested',
      input: { to: 'ana', amount: 10 },
    });
    expect(paid).toEqual([]);
    const approvalId = tool?.state === 'approval-requested' ? tool.approval.id : '';
    expect((await agent.readThread(storedThreadId('alice', 'chat-1'))).suspensions[0]?.id).toBe(approvalId);

    const resumed = nextFinish();
    await chat.addToolApprovalResponse({ id: approvalId, approved: true });
    await resumed;

    expect(chat.error).toBeUndefined();
    expect(paid).toEqual(['ana:10']);
    // The answer carried on the same assistant message: the call ran, then the reply streamed.
    expect(chat.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    const done = chat.lastMessage;
    expect(done?.parts.find(isToolUIPart)).toMatchObject({
      toolCallId: 'pay-ana',
      state: 'output-available',
    });
    const texts = done?.parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])) ?? [];
    expect(texts.at(-1)).toBe(reply);
    expect((await agent.readThread(storedThreadId('alice', 'chat-1'))).messages.at(-1)).toMatchObject({
      role: 'assistant',
      text: reply,
    });
    expect(finished.at(-1)?.metadata).toMatchObject({
      threadId: storedThreadId('alice', 'chat-1'),
      status: 'completed',
    });
  });

  it('carries a denial to the thread as a rejection with the reason, and the call never runs', async () => {
    const { url, agent } = await start();
    const { chat, nextFinish } = openChat(url, 'chat-3');
    await chat.sendMessage({ text: 'pay ana 10 euros' });
    const tool = chat.lastMessage?.parts.find(isToolUIPart);
    const approvalId = tool?.state === 'approval-requested' ? tool.approval.id : '';
    const resumed = nextFinish();
    await chat.addToolApprovalResponse({ id: approvalId, approved: false, reason: 'not this month' });
    await resumed;

    expect(chat.error).toBeUndefined();
    expect(paid).toEqual([]);
    expect(chat.lastMessage?.parts.find(isToolUIPart)).toMatchObject({
      toolCallId: 'pay-ana',
      state: 'output-denied',
    });
    const view = await agent.readThread(storedThreadId('alice', 'chat-3'));
    expect(view.suspensions.filter((q) => q.status === 'open')).toEqual([]);
    expect(view.messages.at(-1)).toMatchObject({ role: 'assistant', text: 'Nothing was paid.' });
  });

  it('streams the reply as text deltas after an approval, under the protocol header, and keeps another principal out', async () => {
    const { url, agent } = await start();
    const alice = api(url, 'alice');
    const user = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'pay ana' }] };
    const first = await readChunks(
      await alice('/v1/chat', { method: 'POST', json: { id: 'chat-2', messages: [user] } }),
    );
    expect(first.header).toBe('v1');
    expect(first.chunks.map((c) => c.type)).toEqual(
      expect.arrayContaining([
        'start',
        'data-flow',
        'tool-input-available',
        'tool-approval-request',
        'finish',
      ]),
    );
    const request = first.chunks.find((c) => c.type === 'tool-approval-request');
    const answered = {
      id: 'a1',
      role: 'assistant',
      parts: [
        {
          type: 'tool-transfer',
          toolCallId: 'pay-ana',
          state: 'approval-responded',
          input: { to: 'ana', amount: 10 },
          approval: { id: request?.approvalId, approved: true },
        },
      ],
    };
    const second = await readChunks(
      await alice('/v1/chat', { method: 'POST', json: { id: 'chat-2', messages: [user, answered] } }),
    );
    expect(second.chunks[0]).toEqual({ type: 'start' });
    const deltas = second.chunks.flatMap((c) => (c.type === 'text-delta' ? [String(c.delta)] : []));
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(reply);
    expect(second.chunks.find((c) => c.type === 'tool-output-available')).toMatchObject({
      toolCallId: 'pay-ana',
    });

    const empty = await alice('/v1/chat', {
      method: 'POST',
      json: { id: 'chat-2', messages: [{ role: 'user', parts: [{ type: 'file', url: 'x' }] }] },
    });
    expect(empty.status).toBe(400);
    // Another principal's chat of the same id is its own thread (ADR 0066): Alice's is not touched.
    const before = await agent.store.loadThread(storedThreadId('alice', 'chat-2'));
    const foreign = await api(url, 'bob')('/v1/chat', {
      method: 'POST',
      json: { id: 'chat-2', messages: [user] },
    });
    await foreign.text();
    expect(foreign.status).toBe(200);
    expect(await agent.store.loadThread(storedThreadId('alice', 'chat-2'))).toEqual(before);
    expect(await agent.store.loadThread(storedThreadId('bob', 'chat-2'))).toBeDefined();
  });
});

describe('event streams carry the reply as it is written', () => {
  it("carries a streaming agent's reply deltas on the thread's event stream (GET /events)", async () => {
    const { url } = await start({ stream: true });
    const alice = api(url, 'alice');
    const asked = await (
      await alice('/v1/threads/t-events/messages', { method: 'POST', json: { text: 'pay ana' } })
    ).json();
    const controller = new AbortController();
    const events = await alice('/v1/threads/t-events/events', { signal: controller.signal });
    const answered = alice(`/v1/threads/t-events/suspensions/${asked.suspensions[0].id}`, {
      method: 'POST',
      json: { feedback: { decision: 'approve' } },
    });
    const deltas: string[] = [];
    let final = '';
    if (events.body)
      for await (const event of readServerSentEvents(events.body)) {
        const data = JSON.parse(event.data);
        if (event.event === 'progress' && data.type === 'text-delta') deltas.push(data.data.delta);
        if (data.type === 'final-response' && data.turnId !== asked.turnId) {
          final = data.data.text;
          break;
        }
      }
    controller.abort();
    expect((await (await answered).json()).reply).toBe(reply);
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(final);
  });

  it('carries the reply deltas on the event stream of a turn started with Accept: text/event-stream', async () => {
    const { url } = await start();
    const alice = api(url, 'alice');
    const asked = await (
      await alice('/v1/threads/t-sse/messages', { method: 'POST', json: { text: 'pay ana' } })
    ).json();
    const suspension = asked.suspensions[0].id;
    const response = await alice(`/v1/threads/t-sse/suspensions/${suspension}`, {
      method: 'POST',
      json: { feedback: { decision: 'approve' } },
      headers: { accept: 'text/event-stream' },
    });
    const deltas: string[] = [];
    let result: { reply?: string } = {};
    if (response.body)
      for await (const event of readServerSentEvents(response.body)) {
        const data = JSON.parse(event.data);
        if (event.event === 'progress' && data.type === 'text-delta') deltas.push(data.data.delta);
        if (event.event === 'turn') result = data;
      }
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe(reply);
    expect(result.reply).toBe(reply);
  });
});

/** A chat as `useChat` keeps it, on the server's `/v1/chat`, sending again once approvals are answered. */
function openChat(url: string, id: string) {
  const finished: UIMessage[] = [];
  let wake: (() => void) | undefined;
  const chat = new ArrayChat({
    id,
    transport: new DefaultChatTransport({
      api: `${url}/v1/chat`,
      headers: { authorization: `Bearer ${tokens.alice}` },
    }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onFinish: ({ message }) => {
      finished.push(message);
      wake?.();
    },
  });
  /** Resolves when the next answer has been read to its end (the automatic send after an approval). */
  const nextFinish = () =>
    new Promise<void>((resolve) => {
      wake = resolve;
    });
  return { chat, finished, nextFinish };
}

/** The UI message chunks of a response, read as the server-sent events they travel in. */
async function readChunks(response: Response) {
  const chunks: Array<Record<string, unknown> & { type: string }> = [];
  let done = false;
  if (response.body)
    for await (const event of readServerSentEvents(response.body)) {
      if (event.data === '[DONE]') done = true;
      else chunks.push(JSON.parse(event.data));
    }
  expect(done).toBe(true);
  return { header: response.headers.get('x-vercel-ai-ui-message-stream'), chunks };
}
