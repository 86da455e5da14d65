/** The machine and the versions measured, for the report's header. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';

export interface Machine {
  node: string;
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  loadAverage: number[];
  time: string;
  /** The kernel's clock source (`tsc`, `kvm-clock`, `hpet` …), when Linux says. */
  clockSource?: string;
  /** Nanoseconds per `Date.now()`, measured here: a clock read that leaves the vDSO is a system call. */
  clockReadNs: number;
}

export function readMachine(): Machine {
  const cpu = cpus();
  return {
    node: process.version,
    cpuModel: cpu[0]?.model ?? 'unknown',
    cores: cpu.length,
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    loadAverage: loadavg().map((l) => Math.round(l * 100) / 100),
    time: new Date().toISOString(),
    ...readClockSource(),
    clockReadNs: measureClockRead(),
  };
}

function readClockSource(): { clockSource?: string } {
  try {
    const source = readFileSync('/sys/devices/system/clocksource/clocksource0/current_clocksource', 'utf8');
    return { clockSource: source.trim() };
  } catch {
    return {};
  }
}

/** The agent reads the clock about a dozen times per step, so a slow clock shows in its figures. */
function measureClockRead(): number {
  const reads = 200_000;
  let sink = 0;
  const start = process.hrtime.bigint();
  for (let i = 0; i < reads; i++) sink += Date.now() & 1;
  const ns = Number(process.hrtime.bigint() - start) / reads;
  return Math.round(ns * 10 + (sink & 0)) / 10;
}

export interface Versions {
  flowstack: string;
  packages: Record<string, string>;
}

const measuredPackages = [
  'ai',
  '@openai/agents',
  '@openai/agents-core',
  'openai',
  '@langchain/langgraph',
  '@langchain/core',
  '@langchain/langgraph-checkpoint',
  '@langchain/langgraph-checkpoint-sqlite',
  '@langchain/langgraph-checkpoint-postgres',
  '@mastra/core',
  'ai-v5',
  'zod',
  'better-sqlite3',
  'pg',
];

export function readVersions(benchDir: string, repoDir: string): Versions {
  const packages: Record<string, string> = {};
  for (const name of measuredPackages) {
    try {
      packages[name] = (
        JSON.parse(readFileSync(join(benchDir, 'node_modules', name, 'package.json'), 'utf8')) as {
          version: string;
        }
      ).version;
    } catch {
      packages[name] = 'not installed';
    }
  }
  const root = JSON.parse(readFileSync(join(repoDir, 'package.json'), 'utf8')) as { version: string };
  return { flowstack: `${root.version} (${describeCommit(repoDir)})`, packages };
}

/** The commit measured, and whether the working tree had changes on top of it (read-only git calls). */
function describeCommit(repoDir: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: repoDir,
      encoding: 'utf8',
    }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--', 'src'], {
        cwd: repoDir,
        encoding: 'utf8',
      }).trim() !== '';
    return dirty ? `commit ${commit} with uncommitted changes in src/` : `commit ${commit}`;
  } catch {
    return 'no git checkout';
  }
}
