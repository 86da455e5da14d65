export { compileSchema, type SchemaValidator } from './compile-schema.js';
export { type DefineToolOptions, defineTool, toolDefaults } from './define-tool.js';
export { defaultToolStages, type ExecuteToolBatchOptions, executeToolBatch } from './execute-tool-batch.js';
export {
  createToolSet,
  type ToolDefinition,
  type ToolExecutionContext,
  type ToolSet,
} from './tool-definition.js';
export {
  errorResult,
  idempotencyKeyOf,
  runStages,
  successResult,
  type ToolBatchContext,
  type ToolCallState,
  type ToolStage,
} from './tool-pipeline.js';
