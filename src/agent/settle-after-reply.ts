/**
 * Background Internal flows that still run when the user-facing flow has answered (seed 001): the reply
 * does not wait for them. Once they are done, their statuses, observations and scratchpad results are
 * saved in a record of their own under the thread's lease, with the id of the turn that started them;
 * the thread's next turn in this process waits for that save, so it reads their results.
 * docs/decisions/0070-a-stop-reaches-the-running-turn.md (background flows).
 */
import { ThreadBusyError } from '../errors/index.js';
import { commitTurn, createTurnRecord, loadThread } from '../turn/index.js';
import { jitterDelayMs } from '../util/index.js';
import type { OpenTurn } from './open-turn.js';

/** How often, and how long apart, the save is tried again while another call holds the thread. */
const busyRetries = 40;
const busyRetryMs = 25;

export async function settleAfterReply(open: OpenTurn, done: Promise<void>): Promise<void> {
  const { config, turn, loop } = open;
  await done;
  for (let attempt = 0; ; attempt++) {
    try {
      await config.holdLease(turn.threadId, async (lease) => {
        const loaded = await loadThread(config.store, turn.threadId);
        if (!loaded) return;
        const record = createTurnRecord({
          threadId: turn.threadId,
          turnId: turn.turnId,
          snapshot: loaded.snapshot,
          baseVersion: loaded.version,
          clock: config.clock,
          lease,
        });
        await loop.background.settle(record);
        await commitTurn(record, config.store, config.bus);
      });
      return;
    } catch (error) {
      // Another process (or a rollback) holds the thread: try again shortly. Anything else leaves the
      // flows Pending on the thread, and its next turn runs them again.
      if (!ThreadBusyError.isInstance(error) || attempt >= busyRetries) {
        config.logger.warn(
          { threadId: turn.threadId, turnId: turn.turnId, err: error },
          "The background flows' results could not be saved; the thread's next turn runs them again.",
        );
        return;
      }
      await config.clock.sleep(jitterDelayMs(busyRetryMs, config.random));
    }
  }
}
