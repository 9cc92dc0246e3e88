'use client';

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { BusinessFunnel } from './funnel-stages';
import { weekLabel } from './funnel-stages';

/** Quotes, priced and accepted per week (the table beside it says the same to screen readers). */
export function FunnelTrend({ weeks }: { weeks: BusinessFunnel['weeks'] }) {
  return (
    <ResponsiveContainer>
      <LineChart data={weeks.map((w) => ({ ...w, label: weekLabel(w.start) }))} margin={{ top: 8, right: 8, bottom: 0, left: -16 }} accessibilityLayer={false}>
        <CartesianGrid vertical={false} stroke="#e4e7eb" />
        <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
        <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
        <Tooltip />
        <Legend wrapperStyle={{ fontSize: 12 }} />
        <Line dataKey="quotes" name="Quotes" stroke="#2563eb" dot={false} isAnimationActive={false} />
        <Line dataKey="priced" name="Priced" stroke="#16a34a" dot={false} isAnimationActive={false} />
        <Line dataKey="accepted" name="Accepted" stroke="#9333ea" dot={false} isAnimationActive={false} />
      </LineChart>
    </ResponsiveContainer>
  );
}
