export { type Authenticate, createTokenAuth } from './auth/create-token-auth.js';
export { minTokenLength, parseTokenList, type TokenTable } from './auth/parse-token-list.js';
export { createServer, defaultMaxBodyBytes, type FlowstackServer } from './create-server.js';
export {
  describeFileSnapshots,
  describeSuspensions,
  type SuspensionInfo,
} from './internal/describe-thread-state.js';
export { createOpenApiDocument } from './openapi-document.js';
export { type ProblemDetails, problem, statusForCode, toProblem } from './problem-details.js';
export type { ResumeOptions, RollbackOptions, ServerAgent, ServerOptions } from './server-types.js';
