/**
 * The turn's imperative shell (DESIGN.md §1): open the turn, then ask the pure machine (`turn/turn-machine.ts`)
 * for the next effect and perform it until the machine says finish; then save and answer. Every effect
 * lives in a file of its own. Pseudo-code in docs/architecture/turn-machine.md.
 */
import { ModelError } from '../errors/index.js';
import { activeFlow } from '../flow/index.js';
import { createTurnTelemetry, type TurnTelemetry } from '../observe/index.js';
import type { AgentConfig } from '../options/index.js';
import { runPlan } from '../plan/loop/index.js';
import { runActiveFlow } from '../policy/run/index.js';
import { abandonTurn } from '../replay/index.js';
import type { FlowInstance } from '../spec/index.js';
import {
  closeDialogue,
  dialogueOf,
  type LoadedThread,
  observe,
  popFinished,
  record,
  startProgress,
  stepTurn,
  type TurnEffect,
  type TurnEvent,
  type TurnResult,
  type TurnView,
  update,
} from '../turn/index.js';
import { cloneData, copyWith } from '../util/index.js';
import { finishTurn } from './finish-turn.js';
import { type LeasedSend, type OpenTurn, openTurn, type TurnInput } from './open-turn.js';
import { routeMessage } from './route-message.js';
import { settleAfterReply } from './settle-after-reply.js';

export async function runTurn(
  config: AgentConfig,
  request: LeasedSend,
  loaded: LoadedThread,
  input: TurnInput,
): Promise<TurnResult> {
  const turnId = 'interrupted' in input ? input.interrupted.turnId : config.ids('turn');
  const telemetry = startTelemetry(config, request, turnId);
  try {
    const open = await openTurn(config, request, loaded, copyWith(input, { turnId, telemetry }));
    const result = await performTurn(open);
    telemetry.end({ status: result.status, input: open.text, reply: result.reply });
    return result;
  } catch (error) {
    telemetry.end({ status: 'failed', error });
    throw error;
  }
}

/** Performs the machine's effects until it says finish. */
async function performTurn(open: OpenTurn): Promise<TurnResult> {
  const view = new OpenTurnView(open);
  let step = stepTurn(startProgress(open.config.limits.maxFlowsPerTurn), view, {
    type: 'start',
    routed: open.routed,
    exhausted: open.exhausted,
  });
  let later: Promise<void> | undefined;
  try {
    while (step.effect.type !== 'finish') {
      const event = await perform(open, step.effect);
      step = stepTurn(step.progress, view, event);
    }
  } finally {
    // Background flows done by now land in this turn; those still running go on after the reply, which
    // does not wait for them (seed 001), and are saved when they are done.
    later = open.loop.background.handOver();
    if (!later) await open.loop.background.settle();
  }
  if (step.effect.bound === 'maxFlowsPerTurn')
    open.turn.replyParts.push({
      text: `I stopped after ${open.config.limits.maxFlowsPerTurn} flow runs in this turn (\`limits.maxFlowsPerTurn\`); send another message to go on.`,
    });
  if (step.effect.stopped) cancelForStop(open, view);
  if (step.effect.closeDialogue) {
    enterFlows(open);
    closeDialogue(open.turn);
  }
  // A stop said while the turn ran is part of the conversation, before the reply it led to.
  const stopText = open.stopText();
  if (stopText !== undefined) record(open.turn, 'message', { role: 'user', text: stopText });
  const result = await finishTurn(open, { stopped: step.effect.stopped === true });
  if (later) open.config.liveTurns.afterReply(open.turn.threadId, settleAfterReply(open, later));
  return result;
}

async function perform(open: OpenTurn, effect: Exclude<TurnEffect, { type: 'finish' }>): Promise<TurnEvent> {
  const { turn, loop } = open;
  try {
    switch (effect.type) {
      case 'abandon':
        await abandonTurn(turn, open.inflight, open.config.store);
        return { type: 'abandoned' };
      case 'route':
        await routeMessage(open);
        // A message delegated to an Internal flow (SUB_AGENT) starts it beside the turn at once.
        loop.background.start();
        return { type: 'routed' };
      case 'run-flow':
      case 'run-plan': {
        enterFlows(open);
        loop.background.start();
        const stop =
          effect.type === 'run-plan' && open.plan
            ? (await runPlan({ ...open.plan, turn })) === 'stop'
            : await runActiveFlow(loop, effect.flow);
        popFinished(turn, { keepGoing: true });
        loop.background.start();
        return { type: 'ran', stop };
      }
    }
  } catch (error) {
    // A model that fails ends the turn with an error reply; the user's message is kept.
    if (!ModelError.isInstance(error)) throw error;
    if (open.loop.options.stopRequested?.() === true) return { type: 'stopped' };
    const message = open.config.redact.text(error.message);
    turn.failed = true;
    turn.replyParts.push({
      text: `Sorry, the language model is not answering right now (${message}). Please try again.`,
    });
    observe(turn, 'error', { phase: error.phase, message });
    return { type: 'model-failed' };
  }
}

/**
 * The user said stop while the turn ran, and a flow was still ready to run: it is cancelled as the cancel
 * fast path would, rather than left to start on the next message. A plan is left to the plan loop, whose
 * own stop (the cancel fast path on the next message) abandons it with its items.
 */
function cancelForStop({ turn, config }: OpenTurn, view: TurnView): void {
  const flow = activeFlow(turn.snapshot.stack);
  const cancel = flow !== undefined && !view.isPlanned(flow);
  if (cancel) {
    update(turn, { type: 'invalidate', flowId: flow.id });
    observe(turn, 'recovery', { action: 'user-stop', flow: flow.name, started: false }, flow.id);
  }
  if (turn.replyParts.length === 0) {
    const what = cancel ? config.flows.get(flow.name)?.description : undefined;
    turn.replyParts.push({
      text: what
        ? `Stopped as you asked; "${what.replace(/\.$/, '')}" is cancelled.`
        : 'Stopped as you asked.',
    });
  }
}

/**
 * From the first flow run on, the turn's diff has its start (routing may have set it already) and the
 * flows it pops are kept for later flows' context.
 */
function enterFlows({ turn }: OpenTurn): void {
  turn.dialogueStart ??= cloneData(dialogueOf(turn.snapshot));
  turn.finished ??= [];
}

/** What the machine reads of the turn: its record as it stands at each step. */
class OpenTurnView implements TurnView {
  constructor(private readonly open: OpenTurn) {}

  get stack(): readonly FlowInstance[] {
    return this.open.turn.snapshot.stack;
  }

  get pending(): boolean {
    return this.open.turn.snapshot.pending !== undefined;
  }

  get suspended(): boolean {
    return this.open.turn.suspended;
  }

  get stopRequested(): boolean {
    return this.open.loop.options.stopRequested?.() === true;
  }

  /** A Plan flow and its sub-flows run through the plan loop (docs/architecture/plan-loop.md). */
  isPlanned(flow: FlowInstance): boolean {
    const { open } = this;
    return (
      open.plan !== undefined &&
      (flow.planId !== undefined || open.config.flows.get(flow.name)?.intent === 'plan')
    );
  }
}

function startTelemetry(config: AgentConfig, request: LeasedSend, turnId: string): TurnTelemetry {
  const { telemetry } = config.options;
  return createTurnTelemetry({
    ...(telemetry?.tracer ? { tracer: telemetry.tracer } : {}),
    agentName: telemetry?.agentName ?? 'flowstack',
    threadId: request.threadId,
    turnId,
    ...(request.principal !== undefined ? { principal: request.principal } : {}),
    clock: config.clock,
    redact: config.redact,
    publish: (progress) => config.bus.publish(progress),
    wantsProgress: () => config.bus.wantsProgress(request.threadId),
    recordContent: telemetry?.recordContent === true,
    model: config.model,
    ...(telemetry?.meter ? { meter: telemetry.meter } : {}),
    ...(telemetry?.prices ? { prices: telemetry.prices } : {}),
  });
}
