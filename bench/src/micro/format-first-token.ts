/** The Markdown of the first-token measure: added latency to first token through the HTTP event stream. */
import { max, median, min, quantile } from '../shared/stats.js';
import type { FirstTokenReport } from './micro-jobs.js';

export function formatFirstToken(reports: readonly FirstTokenReport[]): string {
  const first = reports[0];
  if (!first) return '';
  const { job } = first;
  const p50 = reports.map((r) => quantile(r.millis, 0.5));
  const p99 = reports.map((r) => quantile(r.millis, 0.99));
  return [
    '### Streaming: added latency to first token',
    '',
    "From the provider emulator writing a reply's first text delta to a client of the HTTP API reading it " +
      'as server-sent events (`POST /v1/threads/:id/messages` with `Accept: text/event-stream`; ' +
      '`bench/src/micro/measure-first-token.ts`). The OpenAI-compatible emulator (`src/test/emulators`) streams ' +
      `the reply in word deltas ${job.gapMs} ms apart over loopback HTTP to the real ` +
      '`@ai-sdk/openai-compatible` client; emulator, agent (`stream: true`, memory store, the flow chosen by a ' +
      'fast-path rule), server and client share one process and one clock. Between the first delta and the ' +
      "client lie the provider client's stream parsing, the skill loop, the stream redactor, the agent's bus, " +
      "the server's event stream, the socket and the client's read. " +
      `Each process warms up with ${job.warmupTurns} turns and measures ${job.turns}, each on a new ` +
      `thread; ${reports.length} process${reports.length === 1 ? '' : 'es'}` +
      `${reports.length > 1 ? ', median of their figures (lowest and highest in brackets)' : ''}. ` +
      'The target is 5 ms.',
    '',
    '| measure | p50 | p99 |',
    '| --- | --- | --- |',
    `| added latency to first token | ${ms(p50)} | ${ms(p99)} |`,
  ].join('\n');
}

function ms(values: readonly number[]): string {
  const one = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)} ms` : '—');
  if (values.length === 1) return one(values[0] as number);
  return `${one(median(values))} (${one(min(values))} – ${one(max(values))})`;
}
