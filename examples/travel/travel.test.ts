import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/index.js';
import { createTravelExample } from './index.js';

describe('the travel example on its scripted demo model', () => {
  it('plays the demo conversation: a clarification, a search, bookings that wait for a yes, a plan', async () => {
    const example = createTravelExample({ store: createMemoryStore(), env: {} });
    expect(example.modelDescription).toContain('scripted demo model');
    const turns = [];
    for (const text of example.demoConversation)
      turns.push(await example.agent.send({ threadId: 'demo', text }));
    const replies = turns.map((t) => t.reply);
    expect(replies[0]).toBe('On which date would you like to fly (YYYY-MM-DD)?');
    expect(replies[1]).toContain('Found 2 flights to Lisbon on 2026-12-05; the cheapest is TP1351');
    // A booking spends money: it waits for a person, and nothing is booked until they say yes.
    expect(turns[2]?.status).toBe('suspended');
    expect(turns[2]?.suspensions?.map((s) => [s.kind, s.toolName, s.input])).toEqual([
      ['approval', 'book_flight', { flight_id: 'TP1351', passenger: 'Ada Lovelace' }],
    ]);
    // Asked in the tool's own words, with every argument by its title.
    expect(replies[2]).toContain('Book a flight (Flight: "TP1351", Passenger: "Ada Lovelace")?');
    expect(replies[3]).toBe('Booked TP1351 for Ada Lovelace; your reference is BK0001.');
    // The plan: find flights, then book the cheapest, which again waits for the yes.
    expect(turns[4]?.status).toBe('suspended');
    expect(replies[4]).toContain('Book a flight (Flight: "EJ8012", Passenger: "Grace Hopper")?');
    expect(replies[5]).toBe(
      'Found 2 flights to Paris on 2026-12-07; the cheapest is EJ8012 at €61. Booked EJ8012 for Grace Hopper; your reference is BK0002.',
    );
    expect(example.bookings).toEqual([
      { flight_id: 'TP1351', passenger: 'Ada Lovelace', reference: 'BK0001' },
      { flight_id: 'EJ8012', passenger: 'Grace Hopper', reference: 'BK0002' },
    ]);
  });

  it('reads no flight number from a date, and searches when a booking names only where to', async () => {
    const example = createTravelExample({ store: createMemoryStore(), env: {} });
    const turn = await example.agent.send({
      threadId: 'dates',
      text: 'Book me a flight from Oslo to Lisbon on 2026-12-05',
    });
    expect(turn.reply).toContain('Found 2 flights to Lisbon on 2026-12-05; the cheapest is TP1351');
    expect(JSON.stringify(turn.stack)).not.toContain('"flight_id":"2026"');
    const direct = await example.agent.send({ threadId: 'code', text: 'book U21234 for Ada Lovelace' });
    expect(direct.suspensions?.map((s) => s.input)).toEqual([
      { flight_id: 'U21234', passenger: 'Ada Lovelace' },
    ]);
  });

  it('never books when the person says no', async () => {
    const example = createTravelExample({ store: createMemoryStore(), env: {} });
    const asked = await example.agent.send({ threadId: 'no', text: 'book TP1351 for Ada Lovelace' });
    expect(asked.status).toBe('suspended');
    const refused = await example.agent.send({ threadId: 'no', text: 'no' });
    expect(refused.status).not.toBe('suspended');
    expect(example.bookings).toEqual([]);
    // The no is answered as a decision, not as an error.
    expect(refused.reply).toBe('OK, I did not go ahead with "Book a flight".');
    expect(refused.status).toBe('completed');
    const again = await example.agent.send({ threadId: 'no-why', text: 'book TP1351 for Ada Lovelace' });
    const suspensionId = again.suspensions?.[0]?.id ?? '';
    const withReason = await example.agent.resume({
      threadId: 'no-why',
      suspensionId,
      feedback: { decision: 'reject', reason: 'too expensive' },
    });
    expect(withReason.reply).toBe('OK, I did not go ahead with "Book a flight" (too expensive).');
    expect(withReason.reply).not.toMatch(/auth_error|could not finish|Do not try|book_flight/);
    expect(withReason.status).toBe('completed');
  });

  it('says what it can do when nothing fits', async () => {
    const example = createTravelExample({ store: createMemoryStore(), env: {} });
    const turn = await example.agent.send({ threadId: 'other', text: 'Tell me a joke' });
    expect(turn.reply).toContain('Find flights to a city on a date.');
  });
});
