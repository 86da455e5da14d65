import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteStore } from '../../src/store/index.js';
import { createTravelExample } from './index.js';

// A full collection on demand: what stays reachable after a turn is what the served demo keeps.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const dir = mkdtempSync(join(tmpdir(), 'flowstack-demo-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function liveHeap(): number {
  collectGarbage();
  collectGarbage();
  return process.memoryUsage().heapUsed;
}

describe('the bundled demo model behind `flowstack serve`', () => {
  it('runs 2,800 turns at flat memory: it keeps only its latest calls', async () => {
    // As `flowstack serve travel` without FLOWSTACK_MODEL runs it: the demo model, a store on disk.
    const example = createTravelExample({
      store: createSqliteStore({ path: join(dir, 'demo.db') }),
      env: {},
    });
    expect(example.modelDescription).toContain('scripted demo model');
    let turn = 0;
    const send = async (count: number) => {
      for (let i = 0; i < count; i += 1) {
        turn += 1;
        const result = await example.agent.send({
          threadId: `soak-${turn}`,
          text: 'flights to Paris on 2026-12-05',
        });
        expect(result.reply).toContain('Found 2 flights to Paris');
      }
    };
    // Warm up (compiled code, statement caches, the record filled to its bound), then measure. Code the
    // engine still compiles counts in the heap: after 400 turns it added about 0.75 KB a turn over the next
    // 1,600, after 1,200 about 0.4 KB.
    await send(1_200);
    const before = liveHeap();
    await send(1_600);
    const after = liveHeap();
    await example.agent.close();
    // Keeping every call costs about 3 KB a turn (nearly 5 MB here); a bounded record costs nothing more.
    expect(after - before).toBeLessThan(1_500_000);
  }, 120_000);
});
