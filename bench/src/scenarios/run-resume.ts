/**
 * Crash and resume. `crash` builds a thread of N tool steps in a durable store, then the process kills
 * itself (SIGKILL) inside the tool of step N + 1. `resume`, in a new process, opens the same store and
 * times the framework's own way of going on with that thread until the first new tool call starts.
 *
 * flowstack commits a thread once per turn, so its thread is N / 5 turns of 5 tool steps and the crash
 * hits the first step of the next turn; resuming delivers that turn's request again under its request id
 * (as a queue or an HTTP retry redelivers it), so the interrupted turn goes on under its turn id. LangGraph
 * checkpoints every super-step, so its thread is one run of N steps and `invoke(null)` goes on from the last
 * checkpoint.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Framework } from '../frameworks/framework.js';
import type { CrashJob, ResumeJob, ResumeReport } from '../jobs.js';
import { meter, now } from '../shared/meter.js';
import { requestFor } from '../shared/plan.js';

export const stepsPerTurn = 5;
/** flowstack: the request id of the turn that crashes, which the resuming process delivers again. */
export function crashedRequestId(threadId: string): string {
  return `${threadId}:crashed-turn`;
}

/** flowstack: the crashed worker's lease must expire before another process may take the thread. */
export const crashLeaseTtlMs = 200;

export async function runCrash(framework: Framework, job: CrashJob): Promise<never> {
  const agent = await framework.createAgent({
    persistence: job.persistence,
    maxSteps: job.steps + 10,
    leaseTtlMs: crashLeaseTtlMs,
    ...(job.sqlitePath ? { sqlitePath: job.sqlitePath } : {}),
    ...(job.postgresUrl ? { postgresUrl: job.postgresUrl } : {}),
  });
  meter.beforeTool = async (_name, index) => {
    if (index < job.steps) return;
    // Let the framework's pending writes of the previous step finish, then die without any clean-up.
    await sleep(100);
    process.kill(process.pid, 'SIGKILL');
    await sleep(10_000);
  };
  if (framework.id === 'flowstack') {
    const turn = requestFor({ kind: 'chain', toolCalls: stepsPerTurn });
    for (let t = 0; t * stepsPerTurn < job.steps; t++)
      await agent.run(job.threadId, turn, `${job.threadId}:${t}`);
    await agent.run(job.threadId, turn, crashedRequestId(job.threadId));
  } else {
    await agent.run(job.threadId, requestFor({ kind: 'chain', toolCalls: job.steps + 5 }));
  }
  throw new Error('The crash did not happen.');
}

export async function runResume(framework: Framework, job: ResumeJob): Promise<ResumeReport> {
  const agent = await framework.createAgent({
    persistence: job.persistence,
    maxSteps: 200,
    ...(job.sqlitePath ? { sqlitePath: job.sqlitePath } : {}),
    ...(job.postgresUrl ? { postgresUrl: job.postgresUrl } : {}),
  });
  const turn = requestFor({ kind: 'chain', toolCalls: stepsPerTurn });
  for (let i = 0; i < job.warmSessions; i++) {
    await agent.run(`warm-${process.pid}-${i}`, turn);
    agent.clearMockLog();
  }
  await sleep(crashLeaseTtlMs);
  let firstTool = 0;
  let firstStepModelMs = 0;
  meter.beforeTool = () => {
    if (firstTool !== 0) return;
    firstTool = now();
    firstStepModelMs = meter.modelMs;
  };
  meter.modelMs = 0;
  const start = now();
  const answer = await agent.resume(job.threadId, turn, crashedRequestId(job.threadId));
  const end = now();
  meter.beforeTool = undefined;
  if (!answer.startsWith('Done:')) throw new Error(`The resumed run answered '${answer}'.`);
  if (firstTool === 0) throw new Error('The resumed run called no tool.');
  const persistence = await agent.describePersistence();
  await agent.close();
  return {
    scenario: 'resume',
    firstStepMs: firstTool - start,
    firstStepModelMs,
    totalMs: end - start,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    persistence,
  };
}
