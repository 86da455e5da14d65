/**
 * A recorded answer given back as the model would give it (a generate result, or a stream of parts), and
 * a streamed answer collected as it passes, so it can be recorded once the stream ends.
 */
import type {
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { RecordedAnswer } from './recorded-answer.js';

export function generateResultOf(answer: RecordedAnswer): LanguageModelV3GenerateResult {
  return { content: answer.content, finishReason: answer.finishReason, usage: answer.usage, warnings: [] };
}

export function streamOf(answer: RecordedAnswer): ReadableStream<LanguageModelV3StreamPart> {
  const parts: LanguageModelV3StreamPart[] = [{ type: 'stream-start', warnings: [] }];
  answer.content.forEach((part, index) => {
    const id = String(index);
    if (part.type === 'text') {
      parts.push(
        { type: 'text-start', id },
        { type: 'text-delta', id, delta: part.text },
        { type: 'text-end', id },
      );
    } else if (part.type === 'reasoning') {
      parts.push(
        { type: 'reasoning-start', id },
        { type: 'reasoning-delta', id, delta: part.text },
        { type: 'reasoning-end', id },
      );
    } else if (part.type === 'tool-call') parts.push(part);
  });
  parts.push({ type: 'finish', finishReason: answer.finishReason, usage: answer.usage });
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/** Assembles a streamed answer into content parts, as `doGenerate` would have returned it. */
export function collectStream() {
  const content: LanguageModelV3Content[] = [];
  const open = new Map<string, { type: 'text' | 'reasoning'; text: string }>();
  let finish: { finishReason: LanguageModelV3FinishReason; usage: LanguageModelV3Usage } | undefined;
  let failed = false;
  return {
    add(part: LanguageModelV3StreamPart) {
      if (part.type === 'text-start' || part.type === 'reasoning-start') {
        const entry = {
          type: part.type === 'text-start' ? ('text' as const) : ('reasoning' as const),
          text: '',
        };
        open.set(`${entry.type}:${part.id}`, entry);
        content.push(entry);
      } else if (part.type === 'text-delta' || part.type === 'reasoning-delta') {
        const type = part.type === 'text-delta' ? 'text' : 'reasoning';
        let entry = open.get(`${type}:${part.id}`);
        if (!entry) {
          entry = { type, text: '' };
          open.set(`${type}:${part.id}`, entry);
          content.push(entry);
        }
        entry.text += part.delta;
      } else if (part.type === 'tool-call') content.push(part);
      else if (part.type === 'finish') finish = { finishReason: part.finishReason, usage: part.usage };
      else if (part.type === 'error') failed = true;
    },
    /** The answer, or nothing when the stream failed or never finished (nothing to replay then). */
    answer(fingerprint: string): RecordedAnswer | undefined {
      if (failed || !finish) return undefined;
      return { fingerprint, content, ...finish };
    },
  };
}
