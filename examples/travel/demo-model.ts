/**
 * The travel example's offline model: a scripted model whose steps compute their answer from the call,
 * so `flowstack chat travel` works for any destination without an LLM. It routes with a few regular
 * expressions, calls the flow's tool with the slot values from the skill prompt, and finishes with the
 * tool's result.
 */
import type { LanguageModelV3CallOptions, LanguageModelV3Message } from '@ai-sdk/provider';
import { createScriptedModel, type ScriptedModel, type ScriptStepOutput } from '../../src/test/index.js';

export function createTravelDemoModel(): ScriptedModel {
  return createScriptedModel({
    modelId: 'travel-demo',
    // It serves `flowstack serve` for as long as the process runs: a record of the latest calls only.
    keepCalls: 100,
    steps: [
      { label: 'route', match: { phase: 'predict' }, repeat: true, respond: route },
      { label: 'skill', match: { phase: 'skill' }, repeat: true, respond: runSkill },
      { label: 'plan', match: { phase: 'plan' }, repeat: true, respond: planTrip },
      { label: 'replan', match: { phase: 'replan' }, repeat: true, json: { decision: 'continue' } },
      { label: 'review', match: { phase: 'plan-review' }, repeat: true, json: { decision: 'finish' } },
      { label: 'synthesize', match: { phase: 'synthesize' }, repeat: true, respond: synthesize },
    ],
  });
}

function route(options: LanguageModelV3CallOptions): ScriptStepOutput {
  const text = lastUserText(options.prompt);
  if (/\bplan\b/i.test(text)) return { json: { flow: 'plan', slots: {} } };
  // A flight number is an airline code of two characters, at least one a letter (TP, U2), and 1–4 digits:
  // a year ("2026") is not one.
  const flight = /\b((?:[A-Z]{2}|[A-Z]\d|\d[A-Z])\d{1,4})\b/.exec(text)?.[1];
  // "Book a flight to Lisbon" names no flight yet: it is a search first.
  if (/\bbook\b/i.test(text) && (flight || !/\bto [A-Z]/.test(text))) {
    const slots: Record<string, string> = {};
    const passenger = /\bfor ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*)/.exec(text)?.[1];
    if (flight) slots.flight_id = flight;
    if (passenger) slots.passenger = passenger;
    return { json: { flow: 'book_flight', slots } };
  }
  if (/\b(fly|flight|flights|travel|trip)\b/i.test(text)) {
    const slots: Record<string, string> = {};
    const destination = /\bto ([A-Z][a-z]+(?: [A-Z][a-z]+)*)/.exec(text)?.[1];
    const date = /\b(\d{4}-\d{2}-\d{2})\b/.exec(text)?.[1];
    if (destination) slots.destination = destination;
    if (date) slots.date = date;
    return { json: { flow: 'search_flights', slots } };
  }
  return { json: { flow: 'none', slots: {} } };
}

function runSkill(options: LanguageModelV3CallOptions): ScriptStepOutput {
  const flow = (options.providerOptions?.flowstack as { flow?: string } | undefined)?.flow;
  const last = options.prompt.at(-1);
  const slots = readSlots(options.prompt);
  if (last?.role === 'tool') {
    const part = last.content[0];
    if (part?.type !== 'tool-result') return finish({ outcome: 'failure', message: 'No tool result.' });
    // A failed call ends the skill; when a person said no, the runtime answers it as their decision.
    if (part.output.type === 'error-text') return finish({ outcome: 'failure', message: part.output.value });
    const value = part.output.type === 'text' ? JSON.parse(part.output.value) : null;
    if (flow === 'search_flights') {
      const flights = (value?.flights ?? []) as Array<{ flight_id: string; price_eur: number }>;
      const cheapest = [...flights].sort((a, b) => a.price_eur - b.price_eur)[0];
      const summary = cheapest
        ? `Found ${flights.length} flights to ${slots.destination} on ${slots.date}; the cheapest is ${cheapest.flight_id} at €${cheapest.price_eur}.`
        : `There are no flights to ${slots.destination} on ${slots.date}.`;
      return finish({ outcome: 'success', data: { summary, rows: flights } });
    }
    return finish({
      outcome: 'success',
      data: {
        summary: `Booked ${value.flight_id} for ${value.passenger}; your reference is ${value.reference}.`,
      },
    });
  }
  if (flow === 'search_flights')
    return {
      toolCalls: [{ toolName: 'find_flights', input: { destination: slots.destination, date: slots.date } }],
    };
  if (flow === 'plan_step') {
    // The plan's booking step: the cheapest flight found by the step before, for the passenger it names.
    const system = options.prompt.find((m) => m.role === 'system');
    const text = system?.role === 'system' ? system.content : '';
    const flightId = /cheapest is ([A-Z0-9]{2}\d{1,4})/.exec(text)?.[1];
    const passenger = /Book the cheapest flight for ([^\n.;]+)/.exec(text)?.[1]?.trim();
    if (!flightId || !passenger)
      return finish({ outcome: 'failure', message: 'The step before found no flight to book.' });
    return { toolCalls: [{ toolName: 'book_flight', input: { flight_id: flightId, passenger } }] };
  }
  if (flow === 'book_flight')
    return {
      toolCalls: [
        { toolName: 'book_flight', input: { flight_id: slots.flight_id, passenger: slots.passenger } },
      ],
    };
  return { text: 'I can search and book flights.' };
}

function finish(input: Record<string, unknown>): ScriptStepOutput {
  return { toolCalls: [{ toolName: 'finish_skill', input }] };
}

/** Slot values as the skill prompt lists them (`- name: value` under "Slot values:"). */
function readSlots(prompt: LanguageModelV3Message[]): Record<string, string> {
  const system = prompt.find((m) => m.role === 'system');
  const block = system?.role === 'system' ? (system.content.split('Slot values:\n')[1] ?? '') : '';
  const slots: Record<string, string> = {};
  for (const line of block.split('\n')) {
    const match = /^- (\w+): (.*)$/.exec(line);
    if (!match) break;
    slots[match[1] as string] = match[2] as string;
  }
  return slots;
}

function lastUserText(prompt: LanguageModelV3Message[]): string {
  const user = [...prompt].reverse().find((m) => m.role === 'user');
  if (user?.role !== 'user') return '';
  return user.content.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
}

/** A two-step plan: find flights to the city on the date, then book the cheapest for the passenger. */
function planTrip(options: LanguageModelV3CallOptions): ScriptStepOutput {
  const text = lastUserText(options.prompt);
  const destination = /\bto ([A-Z][a-z]+(?: [A-Z][a-z]+)*)/.exec(text)?.[1] ?? 'Lisbon';
  const date = /\b(\d{4}-\d{2}-\d{2})\b/.exec(text)?.[1] ?? '2026-12-05';
  const passenger = /\bfor ([A-Z][\w'-]*(?: [A-Z][\w'-]*)*)/.exec(text)?.[1] ?? 'Ada Lovelace';
  return {
    json: {
      title: `Trip to ${destination}`,
      items: [
        {
          id: 'search',
          description: `Find flights to ${destination} on ${date}`,
          flow: 'search_flights',
          slots: { destination, date },
        },
        {
          id: 'book',
          description: `Book the cheapest flight for ${passenger}`,
          stepType: 'tool',
          requiredTools: ['book_flight'],
          dependsOn: ['search'],
        },
      ],
    },
  };
}

/** The plan's answer: what the booking step reported, or what the search found. */
function synthesize(options: LanguageModelV3CallOptions): ScriptStepOutput {
  const system = options.prompt.find((m) => m.role === 'system');
  const text = system?.role === 'system' ? system.content : '';
  const booked = /Booked [^\n]*?reference is [A-Z0-9]+\./.exec(text)?.[0];
  const found = /Found \d+ flights[^\n]*?€\d+\./.exec(text)?.[0];
  const content = [found, booked ?? 'Nothing was booked.'].filter(Boolean).join(' ');
  return { json: { content, sources: [], suggestedQuestions: [] } };
}
