/**
 * The model's reply and thinking as they stream, passed on to the turn's live channel (the agent's bus)
 * as progress observations: `text-delta` and `thoughts-delta`, and `text-discard` when the loop gives an
 * answer up to ask again. Each delta is redacted on its way out by a stream redactor, so a secret split
 * across two deltas is still caught; the redactor holds back the end of an answer until it is decided.
 * Nothing here is stored: the reply is saved with the turn (docs/decisions/0060).
 */
import type { SkillLoopLiveEvent } from '../loop/index.js';
import { createStreamRedactor, type StreamRedactor } from '../redact/index.js';
import type { Observation, ObservationType } from '../spec/index.js';
import type { Clock } from '../util/index.js';

export interface LiveTextRelayOptions {
  threadId: string;
  turnId: string;
  clock: Clock;
  publish: (observations: Observation[]) => void;
  /** A redaction of the agent's own (`AgentOptions.redact`), applied to what the stream redactor lets out. */
  redact?: (text: string) => string;
}

/** Receives a skill run's live events (`RunSkillLoopOptions.onEvent`). */
export type LiveTextRelay = (event: SkillLoopLiveEvent) => void;

/** One streamed answer (or thinking) of one model call. */
interface OpenText {
  textId: string;
  parentId: string | undefined;
  redactor: StreamRedactor;
  /** The text is `finish_skill`'s message (the reply), not the model's own text before it. */
  message: boolean;
}

export function createLiveTextRelay(options: LiveTextRelayOptions): LiveTextRelay {
  let count = 0;
  const open: { text?: OpenText | undefined; thoughts?: OpenText | undefined } = {};

  const publish = (type: ObservationType, text: OpenText, data: Record<string, unknown>) => {
    const observation: Observation = {
      specVersion: 1,
      id: 0,
      threadId: options.threadId,
      turnId: options.turnId,
      type,
      time: options.clock.now(),
      data: { textId: text.textId, ...data },
    };
    if (text.parentId !== undefined) observation.parentId = text.parentId;
    options.publish([observation]);
  };
  const release = (type: 'text-delta' | 'thoughts-delta', text: OpenText, chunk: string) => {
    const delta = chunk && options.redact ? options.redact(chunk) : chunk;
    if (delta !== '') publish(type, text, { delta });
  };
  // Any other event of the loop means the model's answer is complete: what was held back goes out.
  const close = () => {
    if (open.thoughts) release('thoughts-delta', open.thoughts, open.thoughts.redactor.flush());
    if (open.text) release('text-delta', open.text, open.text.redactor.flush());
    open.thoughts = undefined;
    open.text = undefined;
  };
  const discard = () => {
    for (const text of [open.thoughts, open.text]) if (text) publish('text-discard', text, {});
    open.thoughts = undefined;
    open.text = undefined;
  };

  return (event) => {
    if (event.type === 'text-delta' || event.type === 'thoughts-delta') {
      const kind = event.type === 'text-delta' ? 'text' : 'thoughts';
      // The model thinks before it answers: once the answer starts, its thinking is complete.
      if (kind === 'text' && open.thoughts) {
        release('thoughts-delta', open.thoughts, open.thoughts.redactor.flush());
        open.thoughts = undefined;
      }
      // finish_skill's message is an answer of its own, apart from any text the model wrote before the call.
      const message = event.type === 'text-delta' && event.message === true;
      if (kind === 'text' && open.text && open.text.message !== message) {
        release('text-delta', open.text, open.text.redactor.flush());
        open.text = undefined;
      }
      let text = open[kind];
      if (!text) {
        count += 1;
        text = {
          textId: `${options.turnId}:${kind}:${count}`,
          parentId: event.parentId,
          redactor: createStreamRedactor(),
          message,
        };
        open[kind] = text;
      }
      release(event.type, text, text.redactor.push(event.delta));
      return;
    }
    if (event.type === 'react-retry' && event.discardPartial) discard();
    else close();
  };
}
