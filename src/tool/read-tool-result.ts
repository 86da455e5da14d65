/**
 * Reads back the full result of a call whose context text was cut (see the cap stage): the journal
 * keeps the whole redacted result under the call's idempotency key, which the capped text names as
 * its `ref`. `createReadToolResultTool` lets the model page through it itself.
 */
import { z } from 'zod';
import { ToolCallError } from '../errors/index.js';
import type { StateStore, ToolCallResult } from '../spec/index.js';
import { defineTool } from './define-tool.js';
import type { ToolDefinition } from './tool-definition.js';

export interface StoredToolResult {
  ref: string;
  toolName: string;
  status: ToolCallResult['status'];
  /** The redacted output (success) or error message. */
  output: unknown;
  /** The redacted text the model would read, uncut. */
  text: string;
}

export interface ReadToolResultOptions {
  store: StateStore;
  ref: string;
  /** Only a result of this thread is returned (a ref from another thread reads as not found). */
  threadId?: string;
}

/** The stored result under `ref`, or `undefined` when there is none (or it is not finished). */
export async function readToolResult(options: ReadToolResultOptions): Promise<StoredToolResult | undefined> {
  const entry = await options.store.readJournal(options.ref);
  if (!entry || entry.result === undefined) return undefined;
  if (options.threadId !== undefined && entry.threadId !== options.threadId) return undefined;
  let result: ToolCallResult;
  try {
    result = JSON.parse(entry.result) as ToolCallResult;
  } catch {
    return undefined;
  }
  return {
    ref: options.ref,
    toolName: entry.toolName,
    status: result.status,
    output:
      result.status === 'success'
        ? result.output
        : result.status === 'error'
          ? result.error.message
          : undefined,
    text: result.contextText,
  };
}

const pageChars = 1_200;

/**
 * A `read_tool_result` tool over `store`: given a `ref` from a cut result and an `offset`, it returns
 * the next page of that result's text. It reads only results of the calling thread.
 */
export function createReadToolResultTool(options: { store: StateStore }): ToolDefinition {
  return defineTool({
    name: 'read_tool_result',
    description:
      'Read more of a tool result that was cut short. Pass the ref named in the cut result and the character offset to start from.',
    input: z.strictObject({
      ref: z.string().min(1),
      offset: z.number().int().min(0).optional(),
      length: z.number().int().min(1).max(pageChars).optional(),
    }),
    idempotent: true,
    timeoutMs: 10_000,
    execute: async ({ ref, offset = 0, length = pageChars }, context) => {
      const stored = await readToolResult({ store: options.store, ref, threadId: context.threadId });
      if (!stored) throw new ToolCallError({ category: 'not_found', message: `No stored result '${ref}'.` });
      const end = Math.min(stored.text.length, offset + length);
      const more = end < stored.text.length ? ` — call again with offset ${end} for more` : ' — the end';
      return `[characters ${offset}–${end} of ${stored.text.length}${more}]\n${stored.text.slice(offset, end)}`;
    },
  }) as ToolDefinition;
}
