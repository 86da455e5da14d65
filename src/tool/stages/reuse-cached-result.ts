import type { ToolCallResult } from '../../spec/index.js';
import { argsHashOf, type ToolCallState } from '../tool-call-state.js';
import type { ToolStage } from '../tool-pipeline.js';

/**
 * Reuses a recent success of an idempotent tool that declares `cacheTtlMs`, for the same arguments and
 * the same principal (or thread, without one): the world is not asked again, no rate-limit unit is
 * spent. Runs after the capability gate and approval, so a cached result never skips either. What is
 * cached is the redacted, uncut result; without a `resultCache` in the batch nothing is cached.
 */
export const reuseCachedResult: ToolStage = (state, next) => {
  const tool = state.tool;
  return tool?.idempotent && tool.cacheTtlMs && state.batch.resultCache
    ? throughCache(state, next)
    : next(state);
};

const throughCache: ToolStage = async (state, next) => {
  const cache = state.batch.resultCache;
  const tool = state.tool;
  if (!cache || !tool?.cacheTtlMs) return next(state);
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
  const result = await next(state);
  if (result.status === 'success') {
    const { simulation: _simulation, outputRef: _outputRef, ...kept } = result;
    await cache.set(key, JSON.stringify(kept), tool.cacheTtlMs).catch(() => undefined);
  }
  return result;
};

function cacheKeyOf(state: ToolCallState): string {
  const { principal, threadId } = state.batch;
  const scope = principal !== undefined ? `principal:${principal}` : `thread:${threadId}`;
  return `result:${state.tool?.id}:${scope}:${argsHashOf(state)}`;
}
