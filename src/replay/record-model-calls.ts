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
  LanguageModelV3GenerateResult,
  LanguageModelV3StreamPart,
  LanguageModelV3StreamResult,
} from '@ai-sdk/provider';
import type { JournalEntry, StateStore } from '../spec/index.js';
import type { Clock } from '../util/index.js';
import { decodeRecordedAnswer, encodeRecordedAnswer, type RecordedAnswer } from './recorded-answer.js';
import { collectStream, generateResultOf, streamOf } from './recorded-answer-stream.js';
import { fingerprintOf, fitsOlderFingerprint } from './request-fingerprint.js';

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
    const { key, callId } = slot;
    const argsHash = answer.fingerprint;
    const toolName = modelAnswerToolName;
    if (!store.journalRecord) {
      await store.journalStart({
        key,
        threadId,
        callId,
        toolName,
        argsHash,
        idempotent: true,
        status: 'started',
        startedAt: now,
      });
      return this.finish(key, result, now);
    }
    const stored = await store.journalRecord({
      key,
      threadId,
      callId,
      toolName,
      argsHash,
      idempotent: true,
      status: 'succeeded',
      startedAt: now,
      finishedAt: now,
      result,
    });
    // Someone recorded this slot first (a replay that saw no row): the answer just used is the one kept.
    if (stored.result !== result) await this.finish(slot.key, result, now);
  }

  private finish(key: string, result: string, finishedAt: number): Promise<void> {
    return this.options.store.journalFinish({ key, status: 'succeeded', result, finishedAt });
  }
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
