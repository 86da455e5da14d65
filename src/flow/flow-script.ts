/**
 * A flow whose policy is plain code (seed 003's SCRIPT strategy): `defineFlow({ run })` replaces the
 * skill's model loop with a function of the reviewed slots. The flow's slots are still reviewed and its
 * confirmation still asked, and every tool it calls still goes through the safety pipeline and the
 * journal — only the model is left out. docs/decisions/0069-script-flows-and-strategies.md.
 */
import type { ToolCallResult } from '../spec/index.js';

/** What a script's `run` is given besides the slots. */
export interface FlowScriptContext {
  /**
   * Calls one of the flow's tools through the tool pipeline (validation, capability, approval, rate
   * limit, journal, redaction) and returns its result as data: `success` with the output, `error` with a
   * typed error, or `suspended` when the call waits for a person.
   */
  callTool(name: string, input: Record<string, unknown>): Promise<ToolCallResult>;
  /** The running flow. */
  flow: { id: string; name: string };
  /** Aborted when the user stops the turn; pass it on to slow work. */
  signal: AbortSignal | undefined;
  /** The user asked to stop (a stop message or a cancel while the turn runs): finish early if you can. */
  stopRequested(): boolean;
}

/**
 * The code policy: what it returns is the flow's result (as `finish_skill`'s `data` would be: `{ text }`
 * for a reply, `{ rows }` for a table); what it throws fails the flow with the thrown message.
 */
export type FlowScript = (
  slots: Readonly<Record<string, unknown>>,
  context: FlowScriptContext,
) => unknown | Promise<unknown>;
