import type { SimulationCache, ToolCallResult } from '../../spec/index.js';
import { argsHashOf, type ToolCallState } from '../tool-call-state.js';
import type { StageAnswer } from '../tool-stage.js';

/**
 * Reuses a recent success of an idempotent tool that declares `cacheTtlMs`, for the same arguments and
 * the same principal (or thread, without one): the world is not asked again, no rate-limit unit is
 * spent. Runs after the capability gate and approval, so a cached result never skips either. What is
 * cached (by `cacheResult`, after the call) is the redacted, uncut result; without a `resultCache` in
 * the batch nothing is cached.
 */
export function reuseCachedResult(state: ToolCallState): StageAnswer<ToolCallResult | undefined> {
  const cache = state.batch.resultCache;
  const tool = state.tool;
  if (!cache || !tool?.idempotent || !tool.cacheTtlMs) return undefined;
  return readCache(state, cache);
}

async function readCache(state: ToolCallState, cache: SimulationCache): Promise<ToolCallResult | undefined> {
  const key = cacheKeyOf(state);
  const hit = await cache.get(key).catch(() => undefined);
  if (hit !== undefined) {
    try {
      const cached = JSON.parse(hit) as Extract<ToolCallResult, { status: 'success' }>;
      state.toolContent = true;
      return { ...cached, callId: state.request.callId, toolName: state.request.toolName };
    } catch {
      // An unreadable entry is a miss.
    }
  }
  state.cacheKey = key;
  return undefined;
}

/** Caches a success of a call that `reuseCachedResult` missed, without its simulation or stored ref. */
export function cacheResult(state: ToolCallState, result: ToolCallResult): StageAnswer<ToolCallResult> {
  const cache = state.batch.resultCache;
  const ttl = state.tool?.cacheTtlMs;
  if (state.cacheKey === undefined || !cache || !ttl || result.status !== 'success') return result;
  const { simulation: _simulation, outputRef: _outputRef, ...kept } = result;
  return cache.set(state.cacheKey, JSON.stringify(kept), ttl).then(
    () => result,
    () => result,
  );
}

function cacheKeyOf(state: ToolCallState): string {
  const { principal, threadId } = state.batch;
  const scope = principal !== undefined ? `principal:${principal}` : `thread:${threadId}`;
  return `result:${state.tool?.id}:${scope}:${argsHashOf(state)}`;
}
