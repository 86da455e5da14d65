/**
 * One job in one fresh process: `node --expose-gc dist/child.js '<job as JSON>'`. Prints one line,
 * `@@BENCH-RESULT <report as JSON>`, and nothing the orchestrator reads besides.
 */
import { loadFramework } from './frameworks/load-framework.js';
import { type Job, type Report, resultMarker } from './jobs.js';
import { runParallel } from './scenarios/run-parallel.js';
import { runCrash, runResume } from './scenarios/run-resume.js';
import { runSessions } from './scenarios/run-sessions.js';
import { runSteps } from './scenarios/run-steps.js';

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? '{}') as Job;
  const framework = await loadFramework(job.framework);
  let report: Report;
  switch (job.scenario) {
    case 'steps':
      report = await runSteps(framework, job);
      break;
    case 'parallel':
      report = await runParallel(framework, job);
      break;
    case 'sessions':
      report = await runSessions(framework, job);
      break;
    case 'crash':
      report = await runCrash(framework, job);
      break;
    case 'resume':
      report = await runResume(framework, job);
      break;
  }
  process.stdout.write(`\n${resultMarker}${JSON.stringify(report)}\n`);
  // Peers may leave timers or pools behind; the job is done.
  process.exit(0);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
