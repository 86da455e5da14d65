/** Language models from the environment: a provider and model id named in FLOWSTACK_MODEL. */

export {
  checkModelVersion,
  type LanguageModelV4Like,
  type SupportedLanguageModel,
  supportedModelVersions,
  toRuntimeModel,
} from './language-model-version.js';
export { type ModelEnvironment, type ResolvedModel, resolveModelFromEnv } from './resolve-model-from-env.js';
export {
  type JsonSchemaObject,
  readSlotPairs,
  readStrictAnswer,
  slotPairsSchema,
  slotValueSchema,
  toStrictJsonSchema,
} from './strict-json-schema.js';
