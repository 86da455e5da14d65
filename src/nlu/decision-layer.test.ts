import { describe, expect, it } from 'vitest';
import { finish, setupAgent } from '../agent/fixtures/test-domain.js';
import { matchBuiltInFastPath } from './index.js';

describe('the decision layer routes fast-path inputs with zero model calls', () => {
  it('greeting, thanks, help, domain rules, repeat, cancel, and yes/no to a pending confirmation', async () => {
    const { agent, model } = setupAgent({ steps: [] });
    const replies: Array<[string, string, string]> = [];
    // Each routed request starts its own thread, so slot review has no earlier turn to fill from and
    // asks; every model call would come from routing, and there must be none.
    const say = async (threadId: string, text: string) => {
      const turn = await agent.send({ threadId, text });
      replies.push([threadId, text, turn.reply]);
      return turn;
    };
    await say('chat', 'Hello!');
    await say('chat', 'thanks');
    await say('chat', 'what can you do?');
    await say('chat', 'stop');
    await say('weather', 'weather');
    await say('weather', 'repeat that');
    await say('weather', 'Cancel');
    await say('email', 'email it to ada@example.com');
    await say('email', 'no');
    await say('report', 'report');
    const ended = await say('report', 'never mind');
    expect(model.callCount).toBe(0);
    expect(ended.stack).toEqual([]);
    const catalog =
      'I can help with:\n- Tell the weather in a city.\n- Report the weather for a city or a region.\n- Email the weather report.';
    expect(replies.map(([, text, reply]) => [text, reply])).toEqual([
      ['Hello!', `Hello! ${catalog}`],
      ['thanks', "You're welcome."],
      ['what can you do?', catalog],
      ['stop', 'There is nothing to cancel.'],
      ['weather', 'Which city?'],
      ['repeat that', 'Which city?'],
      ['Cancel', 'Cancelled: tell the weather in a city.'],
      [
        'email it to ada@example.com',
        'This will email the weather report (to: ada@example.com). Shall I go ahead? (yes/no)',
      ],
      ['no', 'All right, I will not email the weather report.'],
      ['report', 'Please tell me the city or the region.'],
      ['never mind', 'Cancelled: report the weather for a city or a region.'],
    ]);
    const intents = (
      await Promise.all(['chat', 'weather', 'email', 'report'].map((t) => agent.store.readObservations(t)))
    )
      .flat()
      .map((row) => JSON.parse(row.data) as { type: string; data: { source?: string } })
      .filter((o) => o.type === 'intent');
    expect(intents.every((o) => o.data.source === 'fast-path')).toBe(true);
  });

  it('a greeting while a question is pending answers it and asks the question again', async () => {
    const { agent, model } = setupAgent({ steps: [] });
    await agent.send({ threadId: 'g', text: 'weather' });
    const turn = await agent.send({ threadId: 'g', text: 'hi' });
    expect(turn.pending?.slot).toBe('city');
    expect(turn.reply.startsWith('Which city?\n\nHello!')).toBe(true);
    expect(model.callCount).toBe(0);
  });

  it('"yes" to a pending confirmation runs the confirmed flow with no routing model call', async () => {
    const { agent, model, calls } = setupAgent({
      steps: [
        {
          match: { phase: 'skill', flow: 'send_report' },
          toolCalls: [{ toolName: 'email_report', input: { to: 'ada@example.com' } }],
        },
        {
          match: { phase: 'skill', flow: 'send_report' },
          toolCalls: finish({ outcome: 'success', data: { text: 'Sent to ada@example.com.' } }),
        },
      ],
    });
    const asked = await agent.send({ threadId: 'confirm', text: 'email it to ada@example.com' });
    expect(asked.pending?.kind).toBe('confirmation');
    const turn = await agent.send({ threadId: 'confirm', text: 'yes' });
    expect(turn.status).toBe('completed');
    expect(turn.stack).toEqual([]);
    expect(turn.reply).toBe('Sent to ada@example.com.');
    // Every model call is the confirmed flow's skill; nothing predicted, re-routed or filled slots.
    const byPhase: Record<string, number> = {};
    for (const c of model.calls) byPhase[`${c.phase}:${c.flow}`] = (byPhase[`${c.phase}:${c.flow}`] ?? 0) + 1;
    expect(byPhase).toEqual({ 'skill:send_report': 2 });
    expect(model.remaining()).toBe(0);
    expect(calls.emails).toEqual(['ada@example.com']);
    const intents = (await agent.store.readObservations('confirm'))
      .map((row) => JSON.parse(row.data) as { type: string; data: { source?: string } })
      .filter((o) => o.type === 'intent');
    expect(intents.map((o) => o.data.source)).toEqual(['fast-path', 'fast-path']);
  });

  it('yes and no count only while a confirmation is pending', () => {
    expect(matchBuiltInFastPath('yes', { confirming: true })).toEqual({ builtIn: 'confirm', answer: 'yes' });
    expect(matchBuiltInFastPath('Go ahead!', { confirming: true })).toEqual({
      builtIn: 'confirm',
      answer: 'yes',
    });
    expect(matchBuiltInFastPath('yes', { confirming: false })).toBeUndefined();
    expect(matchBuiltInFastPath('yes, but show me the chart first', { confirming: true })).toBeUndefined();
    expect(matchBuiltInFastPath('say that again', { confirming: false })).toEqual({ builtIn: 'repeat' });
    expect(matchBuiltInFastPath('Hello, how are you?', { confirming: false })).toEqual({
      builtIn: 'greeting',
    });
    expect(matchBuiltInFastPath('hello world program in rust', { confirming: false })).toBeUndefined();
  });
});
