export {
  buildEventTree,
  describeObservation,
  type EventTreeNode,
  type TreeObservation,
} from './assets/event-tree.js';
export { type PlanItemView, type PlanView, reducePlan } from './assets/plan-state.js';
export { type ChartLibrary, chartLibraryPath, readChartLibrary } from './chart-library.js';
export { readUiAsset, type UiAsset, uiAssetNames, uiContentSecurityPolicy } from './ui-assets.js';
