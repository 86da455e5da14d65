export {
  type ChatCompletionRequest,
  type OpenAICompatibleServer,
  type OpenAICompatibleServerOptions,
  type OpenAICompatibleServerStep,
  startOpenAICompatibleServer,
} from './openai-compatible-server.js';
export {
  type ConformanceClock,
  describeRateLimiterConformance,
  type RateLimiterConformanceCase,
  rateLimiterConformanceCases,
} from './rate-limiter-conformance.js';
export {
  type DescribeWithServiceOptions,
  type DescribeWithSkip,
  describeServiceAddress,
  describeWithService,
  type ServiceKind,
  serviceAvailable,
} from './require-service.js';
export { ScriptExhaustedError, type ScriptExhaustedErrorOptions } from './script-exhausted-error.js';
export type {
  ScriptFinishReason,
  ScriptStep,
  ScriptStepMatch,
  ScriptStepOutput,
  ScriptToolCall,
  ScriptUsage,
} from './script-step.js';
export {
  createScriptedModel,
  type ScriptedCall,
  type ScriptedModel,
  type ScriptedModelOptions,
} from './scripted-model.js';
export {
  describeStoreConformance,
  runStoreConformanceCase,
  type StoreConformanceCase,
  type StoreConformanceContext,
  type StoreConformanceOptions,
  type StoreConformanceRunner,
  storeConformanceCases,
} from './store-conformance.js';
