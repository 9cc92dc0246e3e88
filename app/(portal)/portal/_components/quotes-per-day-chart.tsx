'use client';

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BusinessOverview } from './business-figures';
import { dayLabel } from './day-label';

/** Live quotes per day, stacked by outcome (the table beside it says the same to screen readers). */
export function QuotesPerDayChart({ days }: { days: BusinessOverview['quotesPerDay'] }) {
  return (
    <ResponsiveContainer>
      <BarChart data={days.map((d) => ({ ...d, label: dayLabel(d.day) }))} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="#e4e7eb" />
        <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
        <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="succeeded" name="Priced" stackId="q" fill="#16a34a" isAnimationActive={false} />
        <Bar dataKey="requiresInput" name="Needed more answers" stackId="q" fill="#f59e0b" isAnimationActive={false} />
        <Bar dataKey="failed" name="Could not be priced" stackId="q" fill="#dc2626" isAnimationActive={false} />
      </BarChart>
    </ResponsiveContainer>
  );
}
