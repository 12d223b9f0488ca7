// The public surface of @tool-search/control-tools: named exports only.
export {
  createControlTools,
  controlToolsFor,
  extendDescription,
  CONTROL_TOOL_NAMES,
  MAX_QUERIES,
} from './control-tools.js';
export type { ControlToolsConfig } from './control-tools.js';
export { okResult, errorResult, renderSearch, renderDescription } from './results.js';
export { checkModeOptions, optionsError, searchOptionsProperties, MAX_DESCRIPTION_CHARS } from './options.js';
export type { ModeOptionsCheck } from './options.js';
export { emitSearch, searchLimitsFor } from './search-limits.js';
export type { SearchLimitSetting } from './search-limits.js';
export { withSkillKinds, readDescribedSkill, renderSkillText, MAX_DESCRIBED_SKILL_CHARS } from './skills.js';
export type { HitKind, KindedHit, SkillText } from './skills.js';
