/**
 * How many hidden classes (V8 maps) a framework's sessions make once warm: code whose objects each get a map
 * of their own is slow wherever those objects go, and on Node 20 an object spread followed by new keys does
 * that once optimised (docs/decisions/0064). Runs N and 2N sequential sessions of K tool steps in two fresh
 * processes under `--log-maps`, and prints the difference per session, with the places that made the maps
 * in the later half of the longer run (the code that made each, its source line and the key it added).
 *
 *   npm run build --prefix .. && npm run build && node probes/maps-per-session.mjs [framework=flowstack] [N=1500] [K=10]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const framework = process.argv[2] ?? 'flowstack';
const sessions = Number(process.argv[3] ?? 1500);
const k = Number(process.argv[4] ?? 10);

if (process.env.MAPS_PER_SESSION_CHILD) {
  const { loadFramework } = await import('../dist/frameworks/load-framework.js');
  const { requestFor } = await import('../dist/shared/plan.js');
  const agent = await (await loadFramework(framework)).createAgent({ persistence: 'none', maxSteps: k + 6 });
  const request = requestFor({ kind: 'chain', toolCalls: k });
  const n = Number(process.env.MAPS_PER_SESSION_CHILD);
  for (let i = 0; i < n; i++) await agent.run(`s${i}`, request);
  process.exit(0);
}

const folder = mkdtempSync(join(tmpdir(), 'maps-per-session-'));
const self = fileURLToPath(import.meta.url);
const logOf = (n) => {
  const logfile = join(folder, `${n}.log`);
  execFileSync(
    process.execPath,
    [
      '--log-maps',
      `--logfile=${logfile}`,
      '--no-logfile-per-isolate',
      self,
      framework,
      String(sessions),
      String(k),
    ],
    { env: { ...process.env, MAPS_PER_SESSION_CHILD: String(n) }, stdio: 'ignore' },
  );
  return readFileSync(logfile, 'utf8').split('\n');
};
const created = (lines) => lines.filter((line) => line.startsWith('map-create,')).length;
const short = logOf(sessions);
const long = logOf(2 * sessions);
rmSync(folder, { recursive: true, force: true });
console.log(
  `${framework}: ${((created(long) - created(short)) / sessions).toFixed(1)} maps made per session (K = ${k})`,
);

// Where: each map event names the address of the code that made it; the code is the latest created there.
const code = [];
const events = [];
for (const line of long) {
  const field = line.split(',');
  if (field[0] === 'code-creation')
    code.push({ start: Number.parseInt(field[4], 16), size: Number(field[5]), name: field[6] ?? '' });
  else if (field[0] === 'map')
    events.push({
      pc: Number.parseInt(field[5], 16),
      codeIndex: code.length,
      at: `${field[6]}:${field[7]}`,
      why: field[1],
      key: field[9] ?? '',
    });
}
const places = new Map();
for (const event of events.slice(Math.floor(events.length / 2))) {
  let name = '?';
  for (let i = event.codeIndex - 1; i >= 0; i--) {
    const c = code[i];
    if (event.pc >= c.start && event.pc < c.start + c.size) {
      name = c.name.replace(/file:\/\/\S*\/(dist\/src\/)?/, '').slice(0, 70);
      break;
    }
  }
  const place = `${name}  line ${event.at}  ${event.why} ${event.key}`;
  places.set(place, (places.get(place) ?? 0) + 1);
}
const later = [...places.values()].reduce((sum, count) => sum + count, 0);
console.log('share of the map events in the later half of the longer run, by place:');
for (const [place, count] of [...places].sort((a, b) => b[1] - a[1]).slice(0, 15))
  console.log(`${((100 * count) / later).toFixed(1).padStart(6)} %  ${place}`);
