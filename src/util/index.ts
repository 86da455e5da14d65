export { type Clock, systemClock } from './clock.js';
export { createSequentialIdGenerator, type IdGenerator, randomIdGenerator } from './id-generator.js';
