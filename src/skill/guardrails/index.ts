export {
  applyCodeGuardrails,
  assertCodeGuardrails,
  type CodeGuardrailOptions,
} from './apply-code-guardrails.js';
export {
  type CodeCheck,
  checkJavaScript,
  dangerousGlobals,
  dangerousModules,
  type JavaScriptPolicy,
} from './check-javascript.js';
export { checkSql, type SqlDialect, type SqlPolicy, type SqlSchema } from './check-sql.js';
export { type ExtractCodeOptions, extractCodeBlocks, stripCodeFences } from './strip-code-fences.js';
