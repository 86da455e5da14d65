/**
 * One pipeline job in one fresh process: `node --expose-gc dist/micro/pipeline-child.js '<job as JSON>'`.
 * Prints one line, `@@MICRO-RESULT <report as JSON>`.
 */

import { measurePipeline } from './measure-pipeline.js';
import type { PipelineJob } from './micro-jobs.js';
import { microResultMarker } from './spawn-pipeline-job.js';

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as PipelineJob;
  const report = await measurePipeline(job);
  process.stdout.write(`\n${microResultMarker}${JSON.stringify(report)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
