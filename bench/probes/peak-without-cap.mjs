/**
 * Whether a framework's peak-heap reading (the sessions scenario's memory target; bench/README.md, "Peak rounds
 * that no full collection cuts short") is cut short by a full collection. After the forced collection that
 * begins a peak round, V8 lets the old generation grow to a few times what survived it before it collects
 * again; the bench's process keeps little (about 20 MB), so a framework that promotes more than that allowance
 * in one round is collected mid-round, and its reading is the allowance rather than what its sessions made.
 * This probe runs the scenario's peak rounds (three fresh processes of three rounds) with no ballast, and with
 * a ballast of kept objects (`MB`) made before the rounds and not counted. A reading that rises with the
 * ballast was capped; one that stays put when the ballast doubles is not.
 *
 *   npm run build --prefix .. && npm run build && node probes/peak-without-cap.mjs [framework=flowstack] [MB=80]
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const framework = process.argv[2] ?? 'flowstack';
const ballastMb = Number(process.argv[3] ?? 80);
const child = fileURLToPath(new URL('./peak-without-cap.mjs', import.meta.url));

if (process.env.PEAK_WITHOUT_CAP_CHILD) await runRounds(Number(process.env.PEAK_WITHOUT_CAP_CHILD));
else {
  for (const ballast of [0, ballastMb]) {
    const rounds = [0, 1 / 3, 2 / 3].flatMap((phase) => {
      const out = execFileSync(process.execPath, ['--expose-gc', child, framework, String(phase)], {
        env: { ...process.env, PEAK_WITHOUT_CAP_CHILD: String(ballast) },
        encoding: 'utf8',
      });
      return JSON.parse(out.trim().split('\n').at(-1));
    });
    rounds.sort((a, b) => a - b);
    const kib = (bytes) => (bytes / 1024).toFixed(1);
    console.log(
      `${framework}, ballast ${ballast} MB: peak heap per session median ${kib(rounds[Math.floor(rounds.length / 2)])} KiB ` +
        `(rounds ${kib(rounds[0])}–${kib(rounds.at(-1))})`,
    );
  }
}

async function runRounds(ballast) {
  const { loadFramework } = await import('../dist/frameworks/load-framework.js');
  const { runSessions } = await import('../dist/scenarios/run-sessions.js');
  const report = await runSessions(await loadFramework(process.argv[2]), {
    scenario: 'sessions',
    framework: process.argv[2],
    persistence: 'none',
    sessions: 1000,
    steps: 5,
    warmupRounds: 3,
    warmupMaxMs: 5000,
    rounds: 1,
    measureMaxMs: 20_000,
    measureMemory: true,
    measures: { throughput: false, peak: true, held: false },
    memoryRounds: 3,
    memoryPhase: Number(process.argv[3]),
    peakBallastMb: ballast,
  });
  console.log(JSON.stringify(report.peakHeapPerSessionBytes));
  process.exit(0);
}
