import { describe, expect, it } from 'vitest';
import type { JsonSchema } from '../spec/index.js';
import { type DescribedTool, describeCall, wordsOfTool } from './describe-call.js';

function toolWith(schema: JsonSchema, extra: Partial<DescribedTool> = {}): DescribedTool {
  return {
    name: 'book_flight',
    description: 'Book a seat on a flight. Every call books one.',
    inputSchema: schema,
    ...extra,
  };
}

const bookingSchema: JsonSchema = {
  type: 'object',
  properties: {
    flight_id: { type: 'string', title: 'Flight' },
    passenger: { type: 'string', description: 'Passenger.' },
    notes: {
      type: 'string',
      description: 'Anything the airline should know, such as a meal or a wheelchair.',
    },
  },
};

describe('describeCall', () => {
  it("names the call by the tool's title and every argument by its title, short description or name, in schema order", () => {
    const words = wordsOfTool('book_flight', toolWith(bookingSchema, { title: 'Book a flight' }));
    // The model wrote the arguments in another order; the prompt keeps the schema's.
    const input = { notes: 'window', passenger: 'Ana', flight_id: 'LH123' };
    expect(describeCall(words, input)).toBe(
      'Book a flight (Flight: "LH123", Passenger: "Ana", notes: "window")',
    );
  });

  it("takes the description's first sentence when the tool has no title", () => {
    const words = wordsOfTool('book_flight', toolWith(bookingSchema));
    expect(describeCall(words, { flight_id: 'LH123' })).toBe('Book a seat on a flight (Flight: "LH123")');
  });

  it('shows arguments a person could not tell apart by their names', () => {
    const schema: JsonSchema = {
      type: 'object',
      properties: {
        to: { type: 'string', title: 'Recipient' },
        cc: { type: 'string', title: 'recipient' },
        amount: { type: 'number', title: 'to' },
      },
    };
    const words = wordsOfTool('pay', toolWith(schema, { title: 'Pay' }));
    expect(describeCall(words, { to: 'ana', cc: 'eve', amount: 5 })).toBe(
      'Pay (to: "ana", cc: "eve", amount: 5)',
    );
  });

  it("shows an untrusted tool by its name and its arguments by theirs, never in the server's words", () => {
    const words = wordsOfTool(
      'fs_write',
      toolWith(
        { type: 'object', properties: { path: { type: 'string', title: 'Harmless note' } } },
        { title: 'Save a draft', untrustedDescription: true },
      ),
    );
    expect(describeCall(words, { path: '/etc/passwd' })).toBe('fs_write (path: "/etc/passwd")');
    expect(words.title).toBeUndefined();
  });

  it('shows a tool it does not know by the names the call has', () => {
    expect(describeCall(wordsOfTool('drop_table', undefined), { table: 'a' })).toBe(
      'drop_table (table: "a")',
    );
  });

  it('shortens a long description used as a title at its end', () => {
    const long = `Book ${'a very long way '.repeat(10)}home`;
    const title = wordsOfTool('book_flight', toolWith(bookingSchema, { description: long })).title ?? '';
    expect(title.length).toBeLessThanOrEqual(80);
    expect(title).toMatch(/^Book a very long way .*…$/);
  });
});
