export * from './book-artifact';
export * from './limits';
export * from './phases';
export * from './evaluate';
export { basisPointsOf } from './money';
