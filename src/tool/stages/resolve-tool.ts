import { errorResult, type ToolStage } from '../tool-pipeline.js';

/** Finds the named tool among those offered to this run; an unknown name is never executed. */
export const resolveTool: ToolStage = (state, next) => {
  const tool = state.batch.tools.get(state.request.toolName);
  if (!tool) {
    const known = [...state.batch.tools.keys()].join(', ');
    const name = state.request.toolName.slice(0, 80);
    return Promise.resolve(
      errorResult(state, 'not_found', `There is no tool named '${name}'. Available tools: ${known}.`),
    );
  }
  return next({ ...state, tool });
};
