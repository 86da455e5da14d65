/**
 * The first-token measure in one fresh process: `node dist/micro/first-token-child.js '<job as JSON>'`.
 * Prints one line, `@@MICRO-RESULT <report as JSON>`.
 */
import { measureFirstToken } from './measure-first-token.js';
import type { FirstTokenJob } from './micro-jobs.js';
import { microResultMarker } from './spawn-pipeline-job.js';

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as FirstTokenJob;
  const report = await measureFirstToken(job);
  process.stdout.write(`\n${microResultMarker}${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
