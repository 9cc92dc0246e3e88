'use client';

import { Bar, BarChart, LabelList, ResponsiveContainer, XAxis, YAxis } from 'recharts';
import type { FunnelStage } from './funnel-stages';

/** The stages as horizontal bars, widest first, each labelled with its count and share (the list beside it says the same to screen readers). */
export function FunnelChart({ stages }: { stages: FunnelStage[] }) {
  const data = stages.map((s) => ({ ...s, text: `${s.count.toLocaleString()}${s.share === null ? '' : ` · ${s.share}%`}` }));
  return (
    <ResponsiveContainer>
      <BarChart data={data} layout="vertical" margin={{ top: 0, right: 72, bottom: 0, left: 0 }} accessibilityLayer={false}>
        <XAxis type="number" hide allowDecimals={false} domain={[0, 'dataMax']} />
        <YAxis type="category" dataKey="label" width={118} tick={{ fontSize: 12 }} tickLine={false} axisLine={false} />
        <Bar dataKey="count" fill="#2563eb" isAnimationActive={false} barSize={22}>
          <LabelList dataKey="text" position="right" style={{ fontSize: 12, fill: '#1f2933' }} />
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
