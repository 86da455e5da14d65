// The HTTP cancel (issue 32 item 2): `POST /v1/threads/{id}/cancel` while a turn runs stops it at its next
// safe point, and the turn's answer says it was stopped instead of running on.
import { afterEach, describe, expect, it } from 'vitest';
import { api, startTestServer, storedThreadId } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

describe('POST /v1/threads/{id}/cancel', () => {
  it('stops the running turn while it routes: no error, no flow started, and the answer says so', async () => {
    const server = await startTestServer();
    running.push(server);
    const alice = api(server.url, 'alice');
    const gate = server.gate;
    if (!gate) throw new Error('the weather agent has a gate');
    await alice('/v1/threads/t-cancel/messages', { method: 'POST', json: { text: 'hello' } });
    gate.hold();
    const answer = alice('/v1/threads/t-cancel/messages', {
      method: 'POST',
      json: { text: 'weather in Oslo' },
    });
    // The routing model call waits at the gate: the turn is running.
    await gate.waiting();
    const cancelled = await alice('/v1/threads/t-cancel/cancel', { method: 'POST' });
    // A thread id the client chose is stored in its principal's namespace (docs/decisions/0066).
    expect(await cancelled.json()).toEqual({
      threadId: storedThreadId('alice', 't-cancel'),
      cancelled: true,
    });
    gate.release();
    const result = await (await answer).json();
    expect(result).toMatchObject({ status: 'completed', reply: 'Stopped as you asked.', stack: [] });
    const thread = await (await alice('/v1/threads/t-cancel')).json();
    expect(thread.messages.at(-1).text).toBe(result.reply);
  });
});
