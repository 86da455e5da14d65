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
    steps: [
      { label: 'route', match: { phase: 'predict' }, repeat: true, respond: route },
      { label: 'skill', match: { phase: 'skill' }, repeat: true, respond: runSkill },
    ],
  });
}

function route(options: LanguageModelV3CallOptions): ScriptStepOutput {
  const text = lastUserText(options.prompt);
  if (/\bbook\b/i.test(text)) {
    const slots: Record<string, string> = {};
    const flight = /\b([A-Z0-9]{2}\d{1,4})\b/.exec(text)?.[1];
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
