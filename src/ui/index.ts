export { readUiAsset, type UiAsset, uiAssetNames, uiContentSecurityPolicy } from './ui-assets.js';
