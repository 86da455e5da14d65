/**
 * Records that do not mislead (issue 31, item 11): `GET /v1/audit` has one `succeeded` row per
 * execution. A call the model repeats after a person approved and it ran is answered from that approval
 * without running, and is listed as `replayed`, not as a second `succeeded` charge. (Rows a killed process
 * left `started` are settled on replay: see http-crash-matrix.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createPaymentAgent } from './fixtures/payment-agent.js';
import { api, startTestServer } from './fixtures/server-fixture.js';

const running: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.close()));
});

describe('GET /v1/audit', () => {
  it('lists a call answered from an approval as replayed, not as a second succeeded run', async () => {
    const { agent, charges } = createPaymentAgent({ approval: true, repeatAfterRun: true });
    const server = await startTestServer({ agent });
    running.push(server);
    const alice = api(server.url, 'alice');
    const send = async (text: string) =>
      (await alice('/v1/threads/t-pay/messages', { method: 'POST', json: { text } })).json();
    // The flow's confirmation first, then the call's own approval.
    expect((await send('charge 30')).status).toBe('needs-input');
    const turn = await send('yes');
    expect(turn.status).toBe('suspended');
    const [question] = turn.suspensions;
    expect(question).toMatchObject({ kind: 'approval', toolName: 'charge_card' });
    const answered = await (
      await alice(`/v1/threads/t-pay/suspensions/${question.id}`, {
        method: 'POST',
        json: { feedback: { decision: 'approve' } },
      })
    ).json();
    expect(answered).toMatchObject({ status: 'completed', reply: expect.stringContaining('Charged 30') });
    expect(charges).toHaveLength(1);

    const { records } = await (await alice('/v1/audit?threadId=t-pay')).json();
    const statuses = records.map((r: { status: string }) => r.status).reverse();
    expect(statuses.filter((s: string) => s === 'succeeded')).toHaveLength(charges.length);
    expect(statuses).toEqual(['suspended', 'succeeded', 'replayed']);
  });
});
