-- The rollup job adds the quotes since its mark (lib/quotes/store/rollup.ts): nothing reads the rollup by hour alone any more.
-- DropIndex
DROP INDEX "quote_outcomes_hourly_hour_idx";
