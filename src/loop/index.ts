export { type CallModelOptions, callModel, type ModelResponse, type ModelToolCall } from './call-model.js';
export { finishSkillTool, finishSkillToolName, parseFinishSkill } from './finish-skill-tool.js';
export {
  type RunSkillLoopOptions,
  runSkillLoop,
  type SkillLoopEvent,
  type SkillLoopResult,
} from './run-skill-loop.js';
export { assistantMessage, toolMessage } from './skill-messages.js';
export { toModelTools } from './to-model-tools.js';
