// A stop said over HTTP while the thread's turn runs (issue 30 with ADR 0070): the message is not refused
// with 409; it reaches the running turn, which stops at its next safe point, and both requests get that
// turn's answer.
import { afterEach, describe, expect, it } from 'vitest';
import { api, createWeatherAgent, startTestServer } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function startHeldTurn(threadId: string) {
  const { agent, gate } = createWeatherAgent();
  // Tells the test when the server has handed a stop message to the agent.
  let handed: () => void = () => undefined;
  const stopHanded = new Promise<void>((resolve) => {
    handed = resolve;
  });
  const server = await startTestServer({
    agent: {
      ...agent,
      send: (options) => {
        const answer = agent.send(options);
        if (options.text === 'stop') handed();
        return answer;
      },
    },
  });
  running.push(server);
  const alice = api(server.url, 'alice');
  await alice(`/v1/threads/${threadId}/messages`, { method: 'POST', json: { text: 'hello' } });
  gate.hold();
  const first = alice(`/v1/threads/${threadId}/messages`, {
    method: 'POST',
    json: { text: 'weather in Oslo' },
  });
  // The routing model call waits at the gate: the turn is running.
  await gate.waiting();
  return { alice, gate, first, stopHanded };
}

describe('POST /v1/threads/{id}/messages "stop" while a turn runs', () => {
  it('stops the running turn and answers with its result, not 409', async () => {
    const { alice, gate, first, stopHanded } = await startHeldTurn('t-stop');
    const stop = alice('/v1/threads/t-stop/messages', { method: 'POST', json: { text: 'stop' } });
    // The agent reads the thread (in memory) before it raises the turn's stop flag.
    // (Were the stop refused, its answer would come first.)
    await Promise.race([stopHanded, stop]);
    await new Promise((resolve) => setImmediate(resolve));
    gate.release();
    const [turnResponse, stopResponse] = await Promise.all([first, stop]);
    expect(stopResponse.status).toBe(200);
    const turn = await turnResponse.json();
    const stopped = await stopResponse.json();
    expect(turn.reply).toMatch(/^Stopped as you asked/);
    expect(turn.stack).toEqual([]);
    expect(stopped).toEqual(turn);
    // The stop is in the conversation, before the reply it led to.
    const thread = await (await alice('/v1/threads/t-stop')).json();
    expect(thread.messages.slice(-3).map((m: { text: string }) => m.text)).toEqual([
      'weather in Oslo',
      'stop',
      turn.reply,
    ]);
  });

  it('any other message while the turn runs is still refused with 409', async () => {
    const { alice, gate, first } = await startHeldTurn('t-busy');
    const other = await alice('/v1/threads/t-busy/messages', {
      method: 'POST',
      json: { text: 'and Bergen?' },
    });
    expect(other.status).toBe(409);
    gate.release();
    expect((await first).status).toBe(200);
  });
});
