/** Language models from the environment: a provider and model id named in FLOWSTACK_MODEL. */
export { type ModelEnvironment, type ResolvedModel, resolveModelFromEnv } from './resolve-model-from-env.js';
