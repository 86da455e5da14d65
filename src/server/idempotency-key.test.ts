/**
 * `Idempotency-Key` on the routes that start a turn (issue 31, item 5): a retry with the same key runs
 * the turn once and answers its result again; the same key with another body is a 422 that changes
 * nothing; `POST /v1/threads` with a key starts one thread however often it is retried; keys are the
 * principal's own. The crash half (SIGKILL mid-call, restart, retry) is in http-crash-matrix.test.ts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentAgent } from './fixtures/payment-agent.js';
import { api, startTestServer } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

async function start() {
  const payments = createPaymentAgent();
  const server = await startTestServer({ agent: payments.agent });
  running.push(server);
  return { ...payments, url: server.url };
}

const keyed = (key: string, text: string) => ({
  method: 'POST',
  headers: { 'Idempotency-Key': key },
  json: { text },
});

describe('Idempotency-Key', () => {
  it('runs a message once however often it is retried, and answers the same result', async () => {
    const { url, charges } = await start();
    const alice = api(url, 'alice');
    const first = await alice('/v1/threads/t-pay/messages', keyed('key-1', 'charge 30'));
    expect(first.status).toBe(201);
    const firstBody = await first.json();
    expect(firstBody).toMatchObject({ status: 'completed', reply: expect.stringContaining('Charged 30') });
    const retry = await alice('/v1/threads/t-pay/messages', keyed('key-1', 'charge 30'));
    expect(retry.status).toBe(200);
    expect(await retry.json()).toMatchObject({
      threadId: firstBody.threadId,
      turnId: firstBody.turnId,
      status: 'completed',
      reply: firstBody.reply,
    });
    expect(charges).toHaveLength(1);
    // Without a key every message is a new request, as before.
    await alice('/v1/threads/t-pay/messages', { method: 'POST', json: { text: 'charge 30' } });
    expect(charges).toHaveLength(2);
  });

  it('refuses the same key with another body with a 422, and changes nothing', async () => {
    const { url, charges } = await start();
    const alice = api(url, 'alice');
    await alice('/v1/threads/t-pay/messages', keyed('key-1', 'charge 30'));
    const thread = await (await alice('/v1/threads/t-pay')).json();
    const reused = await alice('/v1/threads/t-pay/messages', keyed('key-1', 'charge 3000'));
    expect(reused.status).toBe(422);
    expect(reused.headers.get('content-type')).toBe('application/problem+json');
    expect(await reused.json()).toMatchObject({
      status: 422,
      code: 'input_request_reused',
      reason: 'request_reused',
      detail: expect.stringContaining('already used for another message'),
    });
    expect(charges).toEqual([expect.objectContaining({ amount: 30 })]);
    const after = await (await alice('/v1/threads/t-pay')).json();
    expect(after.version).toBe(thread.version);
    expect(after.messages).toEqual(thread.messages);
  });

  it('starts one thread for POST /v1/threads retried with one key, a new one for a new key', async () => {
    const { url, charges } = await start();
    const alice = api(url, 'alice');
    const first = await alice('/v1/threads', keyed('start-1', 'charge 12'));
    const again = await alice('/v1/threads', keyed('start-1', 'charge 12'));
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    const [a, b] = [await first.json(), await again.json()];
    expect(b.threadId).toBe(a.threadId);
    expect(b.turnId).toBe(a.turnId);
    expect(charges).toHaveLength(1);
    const other = await (await alice('/v1/threads', keyed('start-2', 'charge 12'))).json();
    expect(other.threadId).not.toBe(a.threadId);
    expect((await (await alice('/v1/threads')).json()).threads).toHaveLength(2);
  });

  it("keeps one principal's keys apart from another's", async () => {
    const { url, charges } = await start();
    const alice = api(url, 'alice');
    const bob = api(url, 'bob');
    const mine = await (await alice('/v1/threads', keyed('shared-key', 'charge 5'))).json();
    const theirs = await (await bob('/v1/threads', keyed('shared-key', 'charge 5'))).json();
    expect(theirs.threadId).not.toBe(mine.threadId);
    expect(charges).toHaveLength(2);
    // Bob's message to the id of Alice's thread lands in his own thread, and runs there.
    const probe = await bob(`/v1/threads/${mine.threadId}/messages`, keyed('shared-key', 'charge 5'));
    expect(probe.status).toBe(201);
    expect((await probe.json()).threadId).not.toBe(mine.threadId);
    expect(charges).toHaveLength(3);
    const alices = await (await alice(`/v1/threads/${mine.threadId}`)).json();
    expect(alices.messages.filter((m: { role: string }) => m.role === 'user')).toHaveLength(1);
  });

  it('answers a retry of a request that waits for a person with the questions still open', async () => {
    const { agent, charges } = createPaymentAgent({ approval: true });
    const server = await startTestServer({ agent });
    running.push(server);
    const alice = api(server.url, 'alice');
    await alice('/v1/threads/t-pay/messages', keyed('key-a', 'charge 30'));
    const first = await (await alice('/v1/threads/t-pay/messages', keyed('key-b', 'yes'))).json();
    expect(first.status).toBe('suspended');
    const retry = await (await alice('/v1/threads/t-pay/messages', keyed('key-b', 'yes'))).json();
    expect(retry).toMatchObject({ status: 'suspended', turnId: first.turnId });
    expect(retry.suspensions.map((s: { id: string }) => s.id)).toEqual(
      first.suspensions.map((s: { id: string }) => s.id),
    );
    expect(charges).toHaveLength(0);
  });

  it('refuses a malformed key with 400 before anything runs', async () => {
    const { url, charges } = await start();
    const alice = api(url, 'alice');
    for (const key of ['', 'with space', 'x'.repeat(256), 'tab\tkey']) {
      const response = await alice('/v1/threads/t-pay/messages', keyed(key, 'charge 1'));
      expect({ key, status: response.status }).toEqual({ key, status: 400 });
      expect(await response.json()).toMatchObject({ code: 'invalid_idempotency_key' });
    }
    expect(charges).toHaveLength(0);
  });
});
