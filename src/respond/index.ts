export {
  composeReply,
  type DisplayFrame,
  describeResult,
  frameFor,
  type ReplyPart,
} from './compose-reply.js';
