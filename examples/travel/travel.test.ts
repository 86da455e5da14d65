import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import { createTravelExample } from './index.js';

describe('the travel example on its scripted demo model', () => {
  it('plays the demo conversation: a clarification, a search, a booking made once', async () => {
    const example = createTravelExample({ store: createMemoryStore(), env: {} });
    expect(example.modelDescription).toContain('scripted demo model');
    const replies: string[] = [];
    for (const text of example.demoConversation)
      replies.push((await example.agent.send({ threadId: 'demo', text })).reply);
    expect(replies[0]).toBe('On which date would you like to fly (YYYY-MM-DD)?');
    expect(replies[1]).toContain('Found 2 flights to Lisbon on 2026-12-05; the cheapest is TP1351');
    expect(replies[2]).toBe('Booked TP1351 for Ada Lovelace; your reference is BK0001.');
    expect(example.bookings).toEqual([
      { flight_id: 'TP1351', passenger: 'Ada Lovelace', reference: 'BK0001' },
    ]);
  });

  it('says what it can do when nothing fits', async () => {
    const example = createTravelExample({ store: createMemoryStore(), env: {} });
    const turn = await example.agent.send({ threadId: 'other', text: 'Tell me a joke' });
    expect(turn.reply).toContain('Find flights to a city on a date.');
  });
});
