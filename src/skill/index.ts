export {
  applyCodeGuardrails,
  assertCodeGuardrails,
  type CodeCheck,
  type CodeGuardrailOptions,
  checkJavaScript,
  checkSql,
  dangerousGlobals,
  dangerousModules,
  type ExtractCodeOptions,
  extractCodeBlocks,
  type JavaScriptPolicy,
  type SqlDialect,
  type SqlPolicy,
  type SqlSchema,
  stripCodeFences,
} from './guardrails/index.js';
export { type RenderSkillPromptOptions, renderSkillPrompt } from './render-skill-prompt.js';
