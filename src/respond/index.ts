export { type ComposedReply, composeReply, type ReplyPart } from './compose-reply.js';
export { describeRefusals, type Refusal } from './describe-refusals.js';
export {
  type CreatedFrame,
  createDisplayFrame,
  type DisplayFrame,
  defaultFramePageRows,
  describeReply,
  describeResult,
} from './display-frame.js';
export { readTablePage, type StoredTable, type TablePage } from './read-table-page.js';
