/**
 * Event fan-out through Redis pub/sub: why pub/sub and the store rather than Redis Streams is ADR 0020.
 * In short: the store already holds every stored observation in commit order (the outbox) and
 * `streamObservations` reads it after the client's last id, so a message only has to *wake* a stream;
 * nothing is lost when a message is.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  createErrorReceiver,
  createObservationBus,
  type SubscribeObservations,
} from '../../observe/index.js';
import type { Logger, Observation, StateStore } from '../../spec/index.js';
import { createRedisConnection, type RedisConnectionOptions } from './internal/create-redis-connection.js';
import { decodeFanoutMessage, encodeFanoutMessage } from './internal/fanout-message.js';
import { newestObservation } from './internal/newest-observation.js';
import { RedisUnavailableError } from './redis-unavailable-error.js';

/** Options of {@link createRedisEventFanout}. */
export interface RedisEventFanoutOptions extends RedisConnectionOptions {
  /** Names the channel (`<prefix>:events`), so that several apps can share one Redis. Default `flowstack`. */
  prefix?: string;
  /**
   * The store the observations are committed to. With it, after the subscriber connection comes back
   * from a Redis outage, every thread listened to here gets its newest stored observation again, so that
   * streams catch up on what was published while Redis was away. Without it, they catch up at the
   * thread's next event (or the server's `pollIntervalMs`).
   */
  store?: Pick<StateStore, 'readObservations'>;
  /** Receives failed relayed publishes, unreadable messages and failed catch-up reads. Default: `logger`. */
  onError?: (error: unknown) => void;
  /**
   * Where those errors go when there is no `onError` (both are told when both are given), as `error`,
   * redacted. Default: standard error.
   */
  logger?: Logger;
}

/** Which observations {@link RedisEventFanout.relay} passes on. */
export interface RelayOptions {
  /** Also pass live progress (observations with id 0). */
  progress?: boolean;
}

/** A cross-process fan-out of observations. */
export interface RedisEventFanout {
  readonly kind: 'redis';
  /** `host:port/db`, without credentials. */
  readonly address: string;
  /**
   * Sends observations to every process subscribed to the same Redis and prefix. Publish only what is
   * saved (DESIGN.md invariant 4) — `relay` does that. Rejects with `RedisUnavailableError`.
   */
  publish(observations: readonly Observation[]): Promise<void>;
  /**
   * Publishes everything `subscribe` delivers from now on — typically `agent.subscribe`, which delivers
   * observations after they are saved — batching what arrives in one tick into one message. Failures
   * go to `onError`. Returns the stop.
   */
  relay(subscribe: SubscribeObservations, options?: RelayOptions): () => void;
  /**
   * Observations published by *other* fan-outs (other processes); what this one publishes itself is
   * not delivered back, since this process has it from its own agent. A listener may see an observation
   * twice (after a Redis outage) or late: use it as a signal to read the store, as
   * `streamObservations` does, which then delivers each stored observation exactly once.
   */
  subscribe: SubscribeObservations;
  /**
   * Resolves once this process receives what others publish. Subscribing starts the connection; call
   * this at start-up, before serving streams. Rejects with `RedisUnavailableError` when Redis does not
   * answer within `commandTimeoutMs`; the connection keeps trying.
   */
  ready(): Promise<void>;
  close(): Promise<void>;
}

/**
 * @example
 * import { createRedisEventFanout } from 'flowstack/redis';
 * const fanout = createRedisEventFanout({ url: process.env.REDIS_URL, store });
 * await fanout.ready();
 * const server = createServer({ agent, auth, fanout }); // relays this agent, wakes streams on others'
 */
export function createRedisEventFanout(options: RedisEventFanoutOptions = {}): RedisEventFanout {
  const connection = createRedisConnection(options);
  const channel = `${options.prefix ?? 'flowstack'}:events`;
  const origin = randomBytes(8).toString('hex');
  const onError = createErrorReceiver({
    onError: options.onError,
    logger: options.logger,
    message: 'The Redis event fan-out failed to relay or read an event.',
  });
  const bus = createObservationBus({ onListenerError: onError });
  /** Threads listened to here, with how many listeners and the newest id delivered. */
  const threads = new Map<string, { listeners: number; seen: number }>();
  let subscriber: Promise<Redis> | undefined;
  let subscribed: Promise<void> | undefined;
  let markSubscribed: (() => void) | undefined;
  let closed = false;

  const deliver = (observations: readonly Observation[]) => {
    for (const observation of observations) {
      const thread = threads.get(observation.threadId);
      if (thread && observation.id > thread.seen) thread.seen = observation.id;
    }
    bus.publish(observations);
  };

  /** After an outage: each listened thread's newest stored observation, so streams re-read the store. */
  const catchUp = async () => {
    const store = options.store;
    if (!store) return;
    for (const [threadId, thread] of threads) {
      try {
        const newest = await newestObservation(store, threadId, thread.seen);
        if (newest) deliver([newest]);
      } catch (error) {
        onError(error);
      }
    }
  };

  const openSubscriber = () => {
    subscribed ??= new Promise<void>((resolve) => {
      markSubscribed = resolve;
    });
    subscriber ??= connection.duplicate({ autoResubscribe: false }).then((client) => {
      let readyBefore = false;
      client.on('message', (from: string, text: string) => {
        if (from !== channel) return;
        const message = decodeFanoutMessage(text);
        if (!message) return onError(new Error(`An unreadable fan-out message on ${channel}.`));
        if (message.origin !== origin) deliver(message.observations);
      });
      // Subscribed anew on every (re)connection; only then is anything published received again.
      client.on('ready', () => {
        client.subscribe(channel).then(
          () => {
            markSubscribed?.();
            if (readyBefore) void catchUp();
            readyBefore = true;
          },
          (error: unknown) => onError(error),
        );
      });
      return client;
    });
    subscriber.catch(onError);
    return subscribed;
  };

  const publish = async (observations: readonly Observation[]) => {
    if (observations.length === 0) return;
    const text = encodeFanoutMessage({ origin, observations });
    await connection.run((redis) => redis.publish(channel, text));
  };

  return {
    kind: 'redis',
    address: connection.address,
    publish,
    relay(subscribe, relayOptions = {}) {
      let pending: Observation[] = [];
      const stop = subscribe(
        (observation) => {
          pending.push(observation);
          if (pending.length > 1) return;
          queueMicrotask(() => {
            const batch = pending;
            pending = [];
            publish(batch).catch(onError);
          });
        },
        { progress: relayOptions.progress === true },
      );
      return stop;
    },
    subscribe(listener, subscribeOptions = {}) {
      if (closed) return () => {};
      void openSubscriber();
      const threadId = subscribeOptions.threadId;
      if (threadId !== undefined) {
        const thread = threads.get(threadId) ?? { listeners: 0, seen: 0 };
        thread.listeners += 1;
        threads.set(threadId, thread);
      }
      const stop = bus.subscribe(listener, subscribeOptions);
      let stopped = false;
      return () => {
        if (stopped) return;
        stopped = true;
        stop();
        const thread = threadId === undefined ? undefined : threads.get(threadId);
        if (thread && --thread.listeners === 0) threads.delete(threadId as string);
      };
    },
    async ready() {
      if (closed) throw new RedisUnavailableError({ address: connection.address, reason: 'it was closed' });
      const timeoutMs = options.commandTimeoutMs ?? 5_000;
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          openSubscriber(),
          subscriber?.then(() => new Promise<never>(() => {})),
          new Promise<never>((_, reject) => {
            timer = setTimeout(
              () =>
                reject(
                  new RedisUnavailableError({
                    address: connection.address,
                    reason: `not subscribed within ${timeoutMs} ms`,
                  }),
                ),
              timeoutMs,
            );
          }),
        ]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      threads.clear();
      const client = await subscriber?.catch(() => undefined);
      client?.disconnect();
      await connection.close();
    },
  };
}
