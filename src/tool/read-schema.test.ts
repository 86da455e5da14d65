/**
 * A tool's input may come from any schema library: the model is shown the library's JSON Schema, the
 * library's own check decides what the tool receives, and an object that is no readable schema is a
 * `ConfigurationError` naming what it is — never a schema made of the object's internals.
 */
import type { LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { jsonSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod/v3';
import { createAgent } from '../agent/index.js';
import { ConfigurationError } from '../errors/index.js';
import { defineFlow } from '../flow/index.js';
import { createMemoryStore } from '../store/index.js';
import { createScriptedModel } from '../test/index.js';
import { defineTool } from './define-tool.js';
import type { SchemaSource, StandardSchemaLike } from './read-schema.js';

type City = { city: string };

/**
 * A Standard Schema written the way Valibot and ArkType write theirs: its own check (here it trims the
 * city and refuses an empty one) and, when `withJsonSchema`, the Standard JSON Schema converter.
 */
function standardCitySchema(vendor: string, withJsonSchema: boolean): StandardSchemaLike<City> {
  return {
    '~standard': {
      version: 1,
      vendor,
      validate: (value) => {
        const city = (value as { city?: unknown } | null)?.city;
        if (typeof city !== 'string' || city.trim() === '')
          return { issues: [{ message: 'must name a city', path: [{ key: 'city' }] }] };
        return { value: { city: city.trim() } };
      },
      ...(withJsonSchema
        ? {
            jsonSchema: {
              input: ({ target }: { target: string }) => ({
                $comment: `target ${target}`,
                type: 'object',
                properties: { city: { type: 'string' } },
                required: ['city'],
              }),
            },
          }
        : {}),
    },
  };
}

function shownToolResults(options: LanguageModelV3CallOptions): string {
  const texts: string[] = [];
  for (const message of options.prompt) {
    if (message.role !== 'tool') continue;
    for (const part of message.content)
      if (part.type === 'tool-result' && 'value' in part.output) texts.push(String(part.output.value));
  }
  return texts.join('\n');
}

/** One turn in which the model calls `lookup_weather` with `input`; what the tool got and the model saw. */
async function callWeather(input: SchemaSource<City>, args: Record<string, unknown>) {
  const received: unknown[] = [];
  const lookup = defineTool<City, string>({
    name: 'lookup_weather',
    description: 'Weather in a city.',
    input,
    idempotent: true,
    execute: (parsed) => {
      received.push(parsed);
      return `21 °C in ${parsed.city}`;
    },
  });
  const flow = defineFlow({
    name: 'weather',
    intent: 'read',
    description: 'Tell the weather.',
    slots: [],
    tools: ['lookup_weather'],
    skill: 'Look up the weather.',
  });
  let shownSchema: unknown;
  const model = createScriptedModel({
    steps: [
      { match: { phase: 'predict' }, json: { flow: 'weather', slots: {} } },
      {
        match: { phase: 'skill' },
        respond: (options) => {
          const tool = options.tools?.find((t) => t.name === 'lookup_weather');
          shownSchema = tool && 'inputSchema' in tool ? tool.inputSchema : undefined;
          return { toolCalls: [{ toolName: 'lookup_weather', input: args }] };
        },
      },
      {
        match: { phase: 'skill' },
        respond: (options) => ({
          toolCalls: [
            {
              toolName: 'finish_skill',
              input: { outcome: 'success', data: { text: `Saw: ${shownToolResults(options)}` } },
            },
          ],
        }),
      },
    ],
  });
  const agent = createAgent({ model, flows: [flow], tools: [lookup], store: createMemoryStore() });
  const turn = await agent.send({ threadId: 't', text: 'weather?' });
  await agent.close();
  return { reply: turn.reply, received, shownSchema };
}

function problemsOf(define: () => unknown): string[] {
  try {
    define();
  } catch (error) {
    if (error instanceof ConfigurationError) return error.problems;
    throw error;
  }
  throw new Error('no ConfigurationError');
}

function weatherTool(input: unknown) {
  return defineTool({
    name: 'lookup_weather',
    description: 'Weather in a city.',
    input: input as SchemaSource<City>,
    execute: () => 'sunny',
  });
}

describe('a tool schema from another library', () => {
  it('a Standard Schema with JSON Schema: the model sees its JSON Schema, its own check runs', async () => {
    const schema = standardCitySchema('valibot', true);
    const ok = await callWeather(schema, { city: '  Oslo ' });
    expect(ok.shownSchema).toMatchObject({ properties: { city: { type: 'string' } }, required: ['city'] });
    expect(ok.received).toEqual([{ city: 'Oslo' }]);
    expect(ok.reply).toBe('Saw: 21 °C in Oslo');

    const refused = await callWeather(schema, { city: '   ' });
    expect(refused.received).toEqual([]);
    expect(refused.reply).toContain('/city must name a city');
  });

  it('a Standard Schema whose check waits (an async refinement): the tool gets what the check gave', async () => {
    const sync = standardCitySchema('valibot', true);
    const waiting: StandardSchemaLike<City> = {
      '~standard': {
        ...sync['~standard'],
        validate: async (value) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          return sync['~standard'].validate(value);
        },
      },
    };
    const ok = await callWeather(waiting, { city: '  Oslo ' });
    expect(ok.received).toEqual([{ city: 'Oslo' }]);
    expect(ok.reply).toBe('Saw: 21 °C in Oslo');

    const refused = await callWeather(waiting, { city: '   ' });
    expect(refused.received).toEqual([]);
    expect(refused.reply).toContain('/city must name a city');
  });

  it('ArkType: its own toJsonSchema() when it offers no Standard JSON Schema', async () => {
    const schema = Object.assign(standardCitySchema('arktype', false), {
      toJsonSchema: () => ({ type: 'object', properties: { city: { type: 'string', minLength: 2 } } }),
    });
    const { shownSchema, received } = await callWeather(schema, { city: 'Oslo' });
    expect(shownSchema).toMatchObject({ properties: { city: { minLength: 2 } } });
    expect(received).toEqual([{ city: 'Oslo' }]);
  });

  it('zod/mini: read as Zod 4, checked by Zod', async () => {
    const schema = zm.object({
      city: zm.string().check(
        zm.minLength(2),
        zm.refine((city) => city !== 'Atlantis', 'no such city'),
      ),
    });
    const ok = await callWeather(schema as unknown as SchemaSource<City>, { city: 'Oslo' });
    expect(ok.shownSchema).toMatchObject({ properties: { city: { type: 'string', minLength: 2 } } });
    expect(ok.received).toEqual([{ city: 'Oslo' }]);
    const refused = await callWeather(schema as unknown as SchemaSource<City>, { city: 'Atlantis' });
    expect(refused.received).toEqual([]);
    expect(refused.reply).toContain('/city no such city');
  });

  it('Zod 3: converted with zod-to-json-schema, checked by Zod 3', async () => {
    const schema = z3.object({ city: z3.string().refine((c) => c !== 'Atlantis', 'no such city') });
    const tool = weatherTool(schema);
    expect(tool.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
    expect(await tool.parseInput?.({ city: 'Atlantis' })).toEqual({
      valid: false,
      problems: ['/city no such city'],
    });
    expect(await tool.parseInput?.({ city: 'Oslo' })).toEqual({ valid: true, value: { city: 'Oslo' } });
  });

  it("the AI SDK's jsonSchema(): its JSON Schema, and its validate when it has one", async () => {
    const withCheck = jsonSchema<City>(
      { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      {
        validate: (value) =>
          (value as City).city === 'Atlantis'
            ? { success: false, error: new Error('Atlantis is not a city') }
            : { success: true, value: value as City },
      },
    );
    const refused = await callWeather(withCheck, { city: 'Atlantis' });
    expect(refused.shownSchema).toMatchObject({ required: ['city'] });
    expect(refused.received).toEqual([]);
    expect(refused.reply).toContain('Atlantis is not a city');

    const plain = weatherTool(jsonSchema({ type: 'object', properties: { city: { type: 'string' } } }));
    expect(plain.inputSchema).toEqual({ type: 'object', properties: { city: { type: 'string' } } });
    expect(plain.parseInput).toBeUndefined();
  });

  it('a Standard Schema without JSON Schema is refused, saying how to get one', () => {
    const problems = problemsOf(() => weatherTool(standardCitySchema('valibot', false)));
    expect(problems).toEqual([
      "input schema cannot be expressed as JSON Schema: a 'valibot' Standard Schema that offers no JSON Schema (no ~standard.jsonSchema) (wrap it with toStandardJsonSchema() from @valibot/to-json-schema)",
    ]);
  });

  it('an object that is no schema is refused, naming what it is', () => {
    class TypeBox {
      kind = 'object';
    }
    expect(problemsOf(() => weatherTool(new TypeBox()))[0]).toContain(
      'input schema is not one flowstack can read: it is an instance of TypeBox, not plain data',
    );
    expect(problemsOf(() => weatherTool({ type: 'object', parse: () => 1 }))[0]).toContain(
      '/parse is a function',
    );
    expect(problemsOf(() => weatherTool('string'))[0]).toContain('it is a string');
  });

  it('plain JSON Schema stays as written', () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } }, additionalProperties: false };
    expect(weatherTool(schema).inputSchema).toBe(schema);
  });
});
