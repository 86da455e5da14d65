export { createObservationBus, type ObservationBus, type ObservationListener } from './observation-bus.js';
