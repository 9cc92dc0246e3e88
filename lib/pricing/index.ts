export * from './book-artifact';
export * from './evaluate';
export { basisPointsOf } from './money';
