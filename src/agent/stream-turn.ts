/**
 * `agent.stream`: one turn, as `send` runs it, read as it happens. The turn's model calls stream; what
 * the agent's bus carries for the thread (live deltas and tool calls, then the observations each save
 * publishes) becomes typed parts, and the turn's result ends the stream. Leaving the loop early, or the
 * caller's signal, stops the turn as a user's stop does, and the iterator returns once the turn has
 * settled, so the thread is free again (docs/decisions/0060).
 */

import type { AgentConfig, SendOptions } from '../options/index.js';
import type { TurnResult } from '../turn/index.js';
import { closingParts, type TurnStreamPart, toTurnStreamPart } from '../turn/index.js';
import { sendMessage } from './send-message.js';

type Settled = { ok: true; result: TurnResult } | { ok: false; error: unknown };

export async function* streamTurn(config: AgentConfig, options: SendOptions): AsyncGenerator<TurnStreamPart> {
  const controller = new AbortController();
  const caller = options.signal;
  const stopForCaller = () => controller.abort(caller?.reason);
  if (caller?.aborted) stopForCaller();
  else caller?.addEventListener('abort', stopForCaller, { once: true });

  const parts: TurnStreamPart[] = [];
  let wake: (() => void) | undefined;
  let settled: Settled | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  const unsubscribe = config.bus.subscribe(
    (observation) => {
      const part = toTurnStreamPart(observation);
      if (!part) return;
      parts.push(part);
      notify();
    },
    { threadId: options.threadId, progress: true },
  );
  const turn = sendMessage(config, { ...options, signal: controller.signal, stream: true }).then(
    (result) => {
      settled = { ok: true, result };
      notify();
    },
    (error: unknown) => {
      settled = { ok: false, error };
      notify();
    },
  );
  try {
    for (;;) {
      for (let part = parts.shift(); part; part = parts.shift()) yield part;
      if (settled) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
    }
    if (!settled.ok) throw settled.error;
    yield* closingParts(settled.result);
  } finally {
    unsubscribe();
    caller?.removeEventListener('abort', stopForCaller);
    if (!settled) controller.abort(new Error('The turn was stopped: its stream was closed.'));
    await turn;
  }
}
