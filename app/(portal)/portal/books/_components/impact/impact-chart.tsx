'use client';

import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { TableHead } from '../../../../_components/table-head';
import type { Impact } from './use-impact-run';

/** Down in blue, about the same in grey, up in amber: never red and green, which read as good and bad. */
const BAR_COLOURS: Record<string, string> = {
  down_20_or_more: '#1e40af',
  down_10_to_20: '#2563eb',
  down_2_to_10: '#60a5fa',
  within_2: '#9ca3af',
  up_2_to_10: '#fbbf24',
  up_10_to_20: '#d97706',
  up_20_or_more: '#92400e',
};

/** Short tick labels, so that seven fit a phone's width; the full labels are in the table and tooltip. */
const TICKS: Record<string, string> = {
  down_20_or_more: '≤ −20',
  down_10_to_20: '−20…−10',
  down_2_to_10: '−10…−2',
  within_2: '±2',
  up_2_to_10: '+2…+10',
  up_10_to_20: '+10…+20',
  up_20_or_more: '≥ +20',
};

/**
 * How the quotes priced both ways moved, as a bar chart of the fixed buckets, with the same
 * figures as a table for screen readers and for anyone who prefers numbers.
 */
export function ImpactChart({ histogram, caption }: { histogram: Impact['histogram']; caption: string }) {
  const data = histogram.map((b) => ({ ...b, tick: TICKS[b.bucket] ?? b.label }));
  return (
    <figure style={{ margin: 0 }}>
      <div aria-hidden="true" style={{ width: '100%', height: 240 }} data-testid="impact-chart">
        <ResponsiveContainer>
          <BarChart data={data} margin={{ top: 20, right: 8, bottom: 4, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid vertical={false} stroke="#e4e7eb" />
            <XAxis dataKey="tick" tick={{ fontSize: 11 }} interval={0} />
            <YAxis allowDecimals={false} tick={{ fontSize: 12 }} width={40} />
            <Tooltip
              labelFormatter={(_, payload) => `${payload?.[0]?.payload?.label ?? ''} change`}
              formatter={(value) => [`${Number(value).toLocaleString()} quotes`, '']}
              separator=""
              cursor={{ fill: 'rgba(29, 78, 216, 0.06)' }}
            />
            <Bar dataKey="quotes" isAnimationActive={false}>
              {data.map((b) => (
                <Cell key={b.bucket} fill={BAR_COLOURS[b.bucket]} />
              ))}
              <LabelList dataKey="quotes" position="top" style={{ fontSize: 12, fill: '#1f2933' }} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="muted" style={{ fontSize: '0.85rem' }}>
        {caption} Change in price, in percent.
      </figcaption>
      <div className="sr-only">
        <table aria-label="Quotes by change in price">
          <TableHead columns={['Change', 'Quotes', 'Distinct requests']} />
          <tbody>
            {histogram.map((b) => (
              <tr key={b.bucket}>
                <td>{b.label}</td>
                <td>{b.quotes}</td>
                <td>{b.requests}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
