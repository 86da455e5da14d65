/**
 * Makes a turn replayable (DESIGN.md invariant 5): every model answer of the turn is journaled before
 * the runtime acts on it, and a turn resumed after its process died gets the journaled answers back
 * instead of asking the model again. The resumed turn therefore takes the same path, issues the same
 * tool calls with the same call ids, and meets their journal rows: a completed call is reused, a
 * non-idempotent call that started without a result becomes an unknown outcome — never a second run.
 * Without this, a real model would answer a re-run with new call ids, and every side effect of the
 * interrupted turn would happen again (docs/decisions/0017-replayable-turns.md).
 *
 * Answers are keyed by turn, by who asked (the call's `phase` and `flow` labels) and by how many calls
 * that asker made before: concurrent background flows cannot take each other's answers. A recorded
 * answer is used only if the request still looks the same (its fingerprint); otherwise the model is
 * asked and the new answer replaces the old.
 */
import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Content,
  LanguageModelV3FinishReason,
  LanguageModelV3GenerateResult,
  LanguageModelV3Message,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
  LanguageModelV3Usage,
} from '@ai-sdk/provider';
import type { JournalEntry, StateStore } from '../spec/index.js';
import { type Clock, stableHash } from '../util/index.js';
import { decodeRecordedAnswer, encodeRecordedAnswer, type RecordedAnswer } from './recorded-answer.js';

/** The journal's tool name for recorded model answers. */
export const modelAnswerToolName = '(model)';

export interface ModelRecorder {
  /** The model as the turn uses it: answers come from the journal when recorded. */
  model: LanguageModelV3;
  /** Calls made so far per asker; saved with the turn so a resume continues the count. */
  counters(): Record<string, number>;
}

export interface RecordModelCallsOptions {
  model: LanguageModelV3;
  store: StateStore;
  threadId: string;
  turnId: string;
  clock: Clock;
  /** Counters saved by an earlier attempt of this turn. */
  counters?: Readonly<Record<string, number>>;
  /**
   * The turn runs for the first time, under a new id: nothing can be recorded under it yet, so answers
   * are not looked up (one journal read less per model call).
   */
  fresh?: boolean;
  /** Answers are stored redacted (DESIGN.md invariant 8). */
  redact: { text(text: string): string };
}

interface Lookup {
  entry: JournalEntry | undefined;
  answer: RecordedAnswer | undefined;
}

const nothingRecorded: Lookup = Object.freeze({ entry: undefined, answer: undefined });

export function recordModelCalls(options: RecordModelCallsOptions): ModelRecorder {
  return new RecordingModel(options);
}

/** The model as a turn uses it, and its recorder. */
class RecordingModel implements LanguageModelV3, ModelRecorder {
  readonly specificationVersion = 'v3';
  readonly supportedUrls: LanguageModelV3['supportedUrls'];
  readonly provider: string;
  readonly modelId: string;
  private readonly options: RecordModelCallsOptions;
  private readonly counts: Map<string, number>;

  constructor(options: RecordModelCallsOptions) {
    const inner = options.model;
    this.supportedUrls = inner.supportedUrls;
    this.provider = inner.provider;
    this.modelId = inner.modelId;
    this.options = options;
    this.counts = new Map<string, number>(Object.entries(options.counters ?? {}));
  }

  get model(): LanguageModelV3 {
    return this;
  }

  counters(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }

  async doGenerate(call: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    const slot = this.next(call);
    const fingerprint = fingerprintOf(call);
    // A turn run for the first time has nothing recorded under its new id.
    const { entry, answer } = this.options.fresh
      ? nothingRecorded
      : await this.lookup(slot.key, fingerprint, call);
    if (answer) return generateResultOf(answer);
    const result = await this.options.model.doGenerate(call);
    await this.save(slot, entry !== undefined, {
      fingerprint,
      content: result.content,
      finishReason: result.finishReason,
      usage: result.usage,
    });
    return result;
  }

  async doStream(call: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const slot = this.next(call);
    const fingerprint = fingerprintOf(call);
    const { entry, answer } = this.options.fresh
      ? nothingRecorded
      : await this.lookup(slot.key, fingerprint, call);
    if (answer) return { stream: streamOf(answer) };
    const result = await this.options.model.doStream(call);
    const collected = collectStream();
    const save = (recorded: RecordedAnswer) => this.save(slot, entry !== undefined, recorded);
    const recording = new TransformStream<LanguageModelV3StreamPart, LanguageModelV3StreamPart>({
      transform(part, controller) {
        collected.add(part);
        controller.enqueue(part);
      },
      // The answer is durable before the consumer sees the end of the stream, so before any tool runs.
      async flush() {
        const recorded = collected.answer(fingerprint);
        if (recorded) await save(recorded);
      },
    });
    return { ...result, stream: result.stream.pipeThrough(recording) };
  }

  private next(call: LanguageModelV3CallOptions): { key: string; callId: string } {
    const labels = (call.providerOptions?.flowstack ?? {}) as Record<string, unknown>;
    const asker = `${String(labels.phase ?? 'model')}/${String(labels.flow ?? '-')}`;
    const n = this.counts.get(asker) ?? 0;
    this.counts.set(asker, n + 1);
    const { threadId, turnId } = this.options;
    return { key: `${threadId}:${turnId}:model:${asker}:${n}`, callId: `${asker}#${n}` };
  }

  private async lookup(key: string, fingerprint: string, call: LanguageModelV3CallOptions): Promise<Lookup> {
    const entry = await this.options.store.readJournal(key);
    if (!entry?.result) return { entry, answer: undefined };
    try {
      const answer = decodeRecordedAnswer(entry.result);
      const fitting = answer.fingerprint === fingerprint || fitsOlderFingerprint(answer.fingerprint, call);
      return { entry, answer: fitting ? answer : undefined };
    } catch {
      return { entry, answer: undefined };
    }
  }

  /** One row per answer: written whole when the store can (`journalRecord`), else started and finished. */
  private async save(
    slot: { key: string; callId: string },
    exists: boolean,
    answer: RecordedAnswer,
  ): Promise<void> {
    const { store, threadId, clock, redact } = this.options;
    const result = encodeRecordedAnswer({
      fingerprint: answer.fingerprint,
      content: answer.content.map((part) => redactPart(part, redact)),
      finishReason: answer.finishReason,
      usage: answer.usage,
    });
    const now = clock.now();
    if (exists) return this.finish(slot.key, result, now);
    const row = {
      key: slot.key,
      threadId,
      callId: slot.callId,
      toolName: modelAnswerToolName,
      argsHash: answer.fingerprint,
      idempotent: true,
      startedAt: now,
    };
    if (!store.journalRecord) {
      await store.journalStart({ ...row, status: 'started' });
      return this.finish(slot.key, result, now);
    }
    const stored = await store.journalRecord({ ...row, status: 'succeeded', finishedAt: now, result });
    // Someone recorded this slot first (a replay that saw no row): the answer just used is the one kept.
    if (stored.result !== result) await this.finish(slot.key, result, now);
  }

  private finish(key: string, result: string, finishedAt: number): Promise<void> {
    return this.options.store.journalFinish({ key, status: 'succeeded', result, finishedAt });
  }
}

/**
 * What must be the same for a recorded answer to fit: the number of prompt messages, the size of the
 * last one and the tools offered (a short hash of their names, which keeps the journal row small). Enough
 * to tell a replayed call from a different one without storing the prompt.
 */
function fingerprintOf(call: LanguageModelV3CallOptions): string {
  const tools = call.tools ? toolsHash(call.tools) : '';
  return `${call.prompt.length}:${lastMessageSize(call)}:${tools}:${call.responseFormat?.type ?? 'text'}`;
}

/**
 * Whether an answer recorded by an earlier version fits this call: its fingerprint named the tools in
 * full, or measured the last message as its JSON text. Only a turn interrupted before an upgrade and
 * resumed after it has such rows, so this is asked only when a stored answer's fingerprint differs.
 */
function fitsOlderFingerprint(recorded: string, call: LanguageModelV3CallOptions): boolean {
  const last = call.prompt.at(-1);
  const head = `${call.prompt.length}:${last ? JSON.stringify(last.content).length : 0}:`;
  const format = `:${call.responseFormat?.type ?? 'text'}`;
  const tools = !call.tools
    ? ''
    : recorded.includes(':#')
      ? toolsHash(call.tools)
      : call.tools.map((t) => t.name).join(',');
  return recorded === `${head}${tools}${format}`;
}

/**
 * The size of the prompt's last message: the length of its texts, ids and tool names, and of the JSON of
 * any other value.
 */
function lastMessageSize(call: LanguageModelV3CallOptions): number {
  const last = call.prompt.at(-1);
  if (!last) return 0;
  // A system message's content is its text; every other message's is a list of parts.
  if (typeof last.content === 'string') return last.content.length;
  let size = 0;
  for (const part of last.content) size += partSize(part);
  return size;
}

function partSize(part: Exclude<LanguageModelV3Message['content'], string>[number]): number {
  const p = part as Partial<
    Record<'type' | 'text' | 'toolCallId' | 'toolName' | 'input' | 'output', unknown>
  >;
  switch (p.type) {
    case 'text':
    case 'reasoning':
      return 1 + valueSize(p.text);
    case 'tool-call':
      return 1 + valueSize(p.toolCallId) + valueSize(p.toolName) + valueSize(p.input);
    case 'tool-result': {
      const output = p.output as { type?: unknown; value?: unknown } | undefined;
      return (
        1 +
        valueSize(p.toolCallId) +
        valueSize(p.toolName) +
        valueSize(output?.type) +
        valueSize(output?.value)
      );
    }
    default:
      return 1 + valueSize(part);
  }
}

function valueSize(value: unknown): number {
  return typeof value === 'string' ? value.length : (JSON.stringify(value)?.length ?? 0);
}

/** The offered tools, as `#` and a 12-hex hash of their names. */
function toolsHash(tools: readonly { name: string }[]): string {
  return `#${stableHash(tools.map((t) => t.name).join(',')).slice(0, 12)}`;
}

/**
 * Text, reasoning and tool arguments pass the redactor before they are stored. A model only sees
 * redacted context, so a secret in its answer is rare; if one is there, the replayed answer carries
 * the redacted text (a tool call with changed arguments then meets its journal row as another call).
 */
function redactPart(
  part: LanguageModelV3Content,
  redact: { text(text: string): string },
): LanguageModelV3Content {
  // A part with nothing to redact is stored as it is.
  if (part.type === 'text' || part.type === 'reasoning') {
    const text = redact.text(part.text);
    return text === part.text ? part : { ...part, text };
  }
  if (part.type === 'tool-call') {
    const input = redact.text(part.input);
    return input === part.input ? part : { ...part, input };
  }
  return part;
}

function generateResultOf(answer: RecordedAnswer): LanguageModelV3GenerateResult {
  return { content: answer.content, finishReason: answer.finishReason, usage: answer.usage, warnings: [] };
}

function streamOf(answer: RecordedAnswer): ReadableStream<LanguageModelV3StreamPart> {
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
function collectStream() {
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
