/** Provider emulators: local servers that speak and police OpenAI's, Anthropic's and compatible APIs. */
export type { EmulatedCall, EmulatorReply, EmulatorScriptEntry } from './provider-dialect.js';
export { constrainToSchema, findAnthropicSchemaProblem, findOpenAIStrictProblem } from './schema-rules.js';
export {
  type EmulatedProvider,
  type ProviderEmulator,
  type ProviderEmulatorOptions,
  routeReply,
  startProviderEmulator,
} from './start-provider-emulator.js';
