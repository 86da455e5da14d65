/**
 * Runs the micro-benchmarks: every pipeline variant in its own fresh process, `runs` times, the variants
 * interleaved run by run; then the stage breakdowns; then the backtrack scenario (in this process: it
 * counts tokens, not time); then the added latency to first token, `runs` fresh processes. Returns the Markdown section and writes `docs/benchmarks-micro.md`.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatMicroSection, type MicroEnvironment } from './format-micro.js';
import { measureBacktrackTokens } from './measure-backtrack-tokens.js';
import type {
  BacktrackTokensReport,
  FirstTokenReport,
  PipelineJob,
  PipelineReport,
  PipelineToolKind,
} from './micro-jobs.js';
import { spawnFirstTokenJob, spawnPipelineJob } from './spawn-pipeline-job.js';

const repoDir = fileURLToPath(new URL('../../..', import.meta.url));

export interface MicroOptions {
  /** One run per variant instead of three, and a shorter warm-up (still ≥ 2,000 measured batches). */
  quick?: boolean;
  /** Where to write the Markdown; `docs/benchmarks-micro.md` of the repository by default. */
  outputPath?: string;
  log?: (text: string) => void;
}

export interface MicroResult {
  /** The section for `docs/benchmarks.md`, headed `## Pipeline micro-benchmarks`. */
  section: string;
  outputPath: string;
  pipeline: PipelineReport[];
  breakdown: PipelineReport[];
  tokens: BacktrackTokensReport;
  firstToken: FirstTokenReport[];
}

export const pipelineTools: readonly PipelineToolKind[] = ['safe-no-store', 'safe', 'controlled'];
export const batchSizes: readonly number[] = [1, 3];

export async function runMicro(options: MicroOptions = {}): Promise<MicroResult> {
  const log = options.log ?? (() => undefined);
  const runs = options.quick ? 1 : 3;
  const warmupBatches = options.quick ? 1_000 : 2_000;
  const batches = options.quick ? 2_000 : 5_000;
  const loadBefore = loadavg();
  const startedAt = Date.now();

  const variants = pipelineTools.flatMap((tool) => batchSizes.map((calls) => ({ tool, calls })));
  const pipeline: PipelineReport[] = [];
  for (let run = 0; run < runs; run++) {
    // Rotate the order so that no variant always runs first (or last) in a run.
    const order = variants.map((_, i) => variants[(i + run * 2) % variants.length] ?? variants[0]);
    for (const variant of order) {
      if (!variant) continue;
      const job: PipelineJob = { ...variant, warmupBatches, batches, breakdown: false };
      log(`micro: pipeline ${variant.tool} × ${variant.calls} (run ${run + 1} of ${runs})`);
      pipeline.push(await spawnPipelineJob(job));
    }
  }
  const breakdown: PipelineReport[] = [];
  for (const tool of ['safe', 'controlled'] as const) {
    log(`micro: stage breakdown ${tool}`);
    breakdown.push(await spawnPipelineJob({ tool, calls: 1, warmupBatches, batches, breakdown: true }));
  }
  log('micro: backtrack tokens');
  const tokens = await measureBacktrackTokens();
  const firstToken: FirstTokenReport[] = [];
  for (let run = 0; run < runs; run++) {
    log(`micro: first token (run ${run + 1} of ${runs})`);
    firstToken.push(
      await spawnFirstTokenJob({
        warmupTurns: options.quick ? 100 : 300,
        turns: options.quick ? 200 : 500,
        gapMs: 2,
      }),
    );
  }

  const environment: MicroEnvironment = {
    date: new Date().toISOString().slice(0, 10),
    node: process.version,
    cpu: `${cpus()[0]?.model ?? 'unknown'}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB`,
    loadAverage: { before: loadBefore, after: loadavg() },
    commit: readCommit(),
    seconds: (Date.now() - startedAt) / 1_000,
    runs,
    warmupBatches,
    batches,
  };
  const section = formatMicroSection({
    pipeline,
    breakdown,
    tokens,
    firstToken,
    environment,
    where:
      options.outputPath === undefined
        ? 'The same figures are in [`docs/benchmarks-micro.md`](benchmarks-micro.md).'
        : `A quick run (a smoke test): the figures are also in \`${options.outputPath}\`, and \`docs/benchmarks-micro.md\` was left alone.`,
  });
  const standalone = formatMicroSection({
    pipeline,
    breakdown,
    tokens,
    firstToken,
    environment,
    where: '`npm run bench` appends the same section to [`docs/benchmarks.md`](benchmarks.md).',
  });
  const outputPath = options.outputPath ?? join(repoDir, 'docs', 'benchmarks-micro.md');
  writeFileSync(outputPath, formatMicroDocument(standalone));
  return { section, outputPath, pipeline, breakdown, tokens, firstToken };
}

/** The stand-alone file: the same section, one heading level up, and where it comes from. */
function formatMicroDocument(section: string): string {
  const body = section.replace(/^(#+) /gm, (_, hashes: string) => `${hashes.slice(1)} `);
  return `${body.trimEnd()}\n`;
}

function readCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: repoDir, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}
