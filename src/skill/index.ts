export { type RenderSkillPromptOptions, renderSkillPrompt } from './render-skill-prompt.js';
