/**
 * The `route` effect: a message that refines a running plan goes to the plan; any other goes through the
 * decision layer, the pending question's answer or the model's prediction (`routeTurn`, src/nlu).
 */
import { routeTurn } from '../nlu/index.js';
import { routePlanMessage } from '../plan/loop/index.js';
import type { OpenTurn } from './open-turn.js';

export async function routeMessage(open: OpenTurn): Promise<void> {
  const { config, turn, text, plan, loop } = open;
  const rules = config.options.rules ?? [];
  if (plan && (await routePlanMessage({ ...plan, turn, text, rules }))) return;
  const { model, context, stream, signal } = loop.options;
  await routeTurn({
    model,
    context,
    ...(stream ? { stream } : {}),
    ...(signal ? { signal } : {}),
    turn,
    text,
    flows: config.flows,
    rules,
    ids: config.ids,
    maxStackDepth: config.limits.maxStackDepth,
    history: open.history,
    persona: config.persona,
    ...(config.options.domain ? { domain: config.options.domain } : {}),
  });
}
