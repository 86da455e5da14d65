/**
 * The travel desk example domain: search flights, book one. Small enough to read in a minute, and it
 * exercises routing, a clarification, tool calls with validated schemas, and a non-idempotent booking.
 */
import { z } from 'zod';
import { defineFlow, defineTool, type FastPathRule } from '../../src/index.js';

export type Flight = {
  flight_id: string;
  origin: string;
  destination: string;
  date: string;
  departs: string;
  price_eur: number;
};

const routes: Array<[string, string, string, number]> = [
  ['TP1351', 'London', 'Lisbon', 142],
  ['BA500', 'London', 'Lisbon', 189],
  ['AF1234', 'London', 'Paris', 98],
  ['EJ8012', 'London', 'Paris', 61],
  ['LH903', 'London', 'Berlin', 120],
  ['IB3171', 'London', 'Madrid', 134],
];

/** A deterministic timetable: every route flies every day. */
export function findFlights(destination: string, date: string): Flight[] {
  return routes
    .filter(([, , to]) => to.toLowerCase() === destination.trim().toLowerCase())
    .map(([flight_id, origin, to, price], i) => ({
      flight_id,
      origin,
      destination: to,
      date,
      departs: `${String(7 + i * 3).padStart(2, '0')}:15`,
      price_eur: price,
    }));
}

export const findFlightsTool = defineTool({
  name: 'find_flights',
  description: 'List flights to a destination city on a date (YYYY-MM-DD).',
  input: z.object({ destination: z.string().min(2), date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/) }),
  output: z.object({
    flights: z.array(z.object({ flight_id: z.string(), price_eur: z.number() }).passthrough()),
  }),
  idempotent: true,
  timeoutMs: 5_000,
  execute: ({ destination, date }) => ({ flights: findFlights(destination, date) }),
});

/** Bookings made by one example instance; a real domain would call a reservation system. */
export function createBookFlightTool(
  bookings: Array<{ flight_id: string; passenger: string; reference: string }>,
) {
  return defineTool({
    name: 'book_flight',
    // What a person reads when a booking waits for their yes: "Book a flight (Flight: …, Passenger: …)?"
    title: 'Book a flight',
    description: 'Book a seat on a flight for a passenger. Not idempotent: every call books a seat.',
    input: z.object({
      flight_id: z
        .string()
        .regex(/^[A-Z0-9]{2}\d{1,4}$/)
        .meta({ title: 'Flight' }),
      passenger: z.string().min(2).meta({ title: 'Passenger' }),
    }),
    output: z.object({
      reference: z.string(),
      flight_id: z.string(),
      passenger: z.string(),
      idempotencyKey: z.string(),
    }),
    idempotent: false,
    // It spends the traveller's money: the example's agent asks a person before each booking.
    capability: 'restricted',
    timeoutMs: 10_000,
    execute: ({ flight_id, passenger }, context) => {
      const reference = `BK${(bookings.length + 1).toString().padStart(4, '0')}`;
      bookings.push({ flight_id, passenger, reference });
      return { reference, flight_id, passenger, idempotencyKey: context.idempotencyKey };
    },
  });
}

export const searchFlightsFlow = defineFlow({
  name: 'search_flights',
  intent: 'read',
  description: 'Find flights to a city on a date.',
  slots: [
    {
      name: 'destination',
      type: 'text',
      priority: 'required',
      description: 'Destination city',
      question: 'Where would you like to fly to?',
    },
    {
      name: 'date',
      type: 'date',
      priority: 'required',
      description: 'Travel date',
      question: 'On which date would you like to fly (YYYY-MM-DD)?',
    },
  ],
  tools: ['find_flights'],
  skill:
    'Find flights to {{destination}} on {{date}} with find_flights, then finish with the flights as rows and a one-line summary.',
});

export const bookFlightFlow = defineFlow({
  name: 'book_flight',
  intent: 'transform',
  description: 'Book a seat on a flight.',
  slots: [
    {
      name: 'flight_id',
      type: 'text',
      priority: 'required',
      description: 'Flight number',
      question: 'Which flight number should I book?',
    },
    {
      name: 'passenger',
      type: 'text',
      priority: 'required',
      description: 'Passenger name',
      question: 'Who is travelling (full name)?',
    },
  ],
  tools: ['book_flight'],
  skill:
    'Book flight {{flight_id}} for {{passenger}} with book_flight, then finish with the booking reference.',
});

/** Fast paths: these messages are routed without a model call. */
export const travelRules: FastPathRule[] = [
  {
    pattern:
      /^(?:find |search |show )?flights? to (?<destination>[a-z ]+?)(?: on (?<date>\d{4}-\d{2}-\d{2}))?[.!?]?$/i,
    flow: 'search_flights',
  },
  {
    pattern: /^book (?:flight )?(?<flight_id>[A-Z0-9]{2}\d{1,4})(?: for (?<passenger>.+))?$/i,
    flow: 'book_flight',
  },
];
