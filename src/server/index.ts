export {
  type A2AHandler,
  type A2ATurn,
  type A2ATurnPort,
  type AgentCardOptions,
  createA2AHandler,
  createAgentCard,
} from '../a2a/index.js';
export { type Authenticate, createTokenAuth } from './auth/create-token-auth.js';
export { minTokenLength, parseTokenList, type TokenTable } from './auth/parse-token-list.js';
export { createServer, defaultMaxBodyBytes, type FlowstackServer } from './create-server.js';
export {
  describeFileSnapshots,
  describeSuspensions,
  type SuspensionInfo,
} from './describe-thread-state.js';
export { createOpenApiDocument } from './openapi-document.js';
export { type ProblemDetails, problem, statusForCode, toProblem } from './problem-details.js';
export type {
  A2AServerOptions,
  EventFanout,
  ResumeOptions,
  RollbackOptions,
  ServerAgent,
  ServerOptions,
  TurnSender,
} from './server-types.js';
