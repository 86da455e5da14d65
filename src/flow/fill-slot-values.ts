/**
 * Seed 001 System 2 slot filling: the model reads the recent conversation and memory and fills the
 * slots the router's labels left empty (phase `fill-slots`). Only values that pass the slot's type
 * check are kept, and a slot that already holds a valid value is never overwritten.
 */
import type { LanguageModelV3, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { callModel } from '../loop/index.js';
import { composePrompt, describePreferences } from '../memory/index.js';
import { readSlotPairs, slotPairsSchema } from '../model/index.js';
import type { FlowInstance, FlowSpec, ScratchpadEntry, SlotSpec } from '../spec/index.js';
import { checkSlotValue, hasValue } from './slot-values.js';

export interface FillSlotValuesOptions {
  model: LanguageModelV3;
  /** Recent conversation turns, ending with the user's latest message. */
  context: LanguageModelV3Prompt;
  memory: { scratchpad: readonly ScratchpadEntry[]; preferences: Readonly<Record<string, unknown>> };
  persona: string;
  stream?: boolean;
  signal?: AbortSignal;
}

export interface FillSlotValuesResult {
  flow: FlowInstance;
  /** Names of the slots the model filled. */
  filled: string[];
}

export async function fillSlotValues(
  spec: FlowSpec,
  flow: FlowInstance,
  options: FillSlotValuesOptions,
): Promise<FillSlotValuesResult> {
  const empty = spec.slots.filter(
    (s) => !(hasValue(flow.slots[s.name]) && checkSlotValue(s, flow.slots[s.name]).ok),
  );
  if (empty.length === 0) return { flow, filled: [] };
  const memory = [
    ...options.memory.scratchpad.slice(-8).map((e) => `- (${e.source}) ${e.text}`),
    ...describePreferences(options.memory.preferences)
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => `- preference ${l.slice(2)}`),
  ];
  const task =
    `Fill slots of the flow "${spec.name}" (${spec.description}) from the conversation and memory below.\n` +
    `Empty slots:\n${empty.map(describeSlot).join('\n')}\n` +
    (memory.length > 0 ? `Memory:\n${memory.join('\n')}\n` : '') +
    'Use only values the user stated or memory holds; leave out a slot you cannot fill. ' +
    'Answer with JSON only: {"slots": [{"name": "<slot>", "value": <value>}]}.';
  const response = await callModel({
    model: options.model,
    prompt: [
      { role: 'system', content: composePrompt({ persona: options.persona, task }) },
      ...options.context,
    ],
    phase: 'fill-slots',
    flow: spec.name,
    responseFormat: {
      type: 'json',
      name: 'slots',
      // Strict under every provider (ADR 0058): the empty slots as name/value pairs.
      schema: {
        type: 'object',
        properties: { slots: slotPairsSchema(empty.map((s) => s.name)) },
        required: ['slots'],
        additionalProperties: false,
      },
    },
    ...(options.stream ? { stream: true } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const proposed = parseSlots(response.text);
  const slots = { ...flow.slots };
  const filled: string[] = [];
  for (const slot of empty) {
    if (!(slot.name in proposed)) continue;
    const check = checkSlotValue(slot, proposed[slot.name]);
    if (!check.ok) continue;
    slots[slot.name] = check.value;
    filled.push(slot.name);
  }
  return { flow: filled.length > 0 ? { ...flow, slots } : flow, filled };
}

function describeSlot(slot: SlotSpec): string {
  const options = slot.options
    ? ` one of ${slot.options.join('|')}`
    : slot.entities
      ? ` one of ${slot.entities.join('|')}`
      : '';
  return `- ${slot.name} (${slot.type}${options}, ${slot.priority}): ${slot.description}`;
}

function parseSlots(text: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as { slots?: unknown };
    return readSlotPairs(value.slots);
  } catch {
    return {};
  }
}
