import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

// uPlot draws on a canvas: ~50 kB minified for time series with axes, a cursor and a legend. It is
// imported only here, and this module only by the home page's lazy chunk (see docs/decisions.md).

export interface ChartSeries {
  label: string;
  /** Major units per day (display only: the sums were made in integer minor units). */
  values: number[];
  color: string;
}

interface Props {
  /** Midnight UTC of each day, ms. */
  days: number[];
  series: ChartSeries[];
  kind: 'area' | 'bars';
  /** A value as the tooltip and axis say it ("1,250.00 USDC"). */
  format: (value: number, label: string) => string;
  testId?: string;
  height?: number;
}

const compact = new Intl.NumberFormat('en-GB', { notation: 'compact', maximumFractionDigits: 1 });
const axisDay = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** A daily time series (sandbox days, UTC), sized to its container and redrawn when it resizes. */
export function Chart({ days, series, kind, format, testId, height = 220 }: Props) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const axis = { stroke: '#667085', grid: { stroke: '#eef0f3', width: 1 }, ticks: { show: false } };
    const bars = uPlot.paths.bars?.({ size: [0.7, 28], gap: 2 });
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 200),
        height,
        legend: { show: series.length > 1, live: false },
        cursor: { drag: { x: false, y: false }, points: { show: kind === 'area' } },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [
          {
            ...axis,
            grid: { show: false },
            values: (_u, ticks) => ticks.map((t) => axisDay.format(t * 1000)),
          },
          { ...axis, size: 52, values: (_u, ticks) => ticks.map((t) => compact.format(t)) },
        ],
        series: [
          { value: (_u, t) => (t == null ? '' : axisDay.format(t * 1000)) },
          ...series.map((s) => ({
            label: s.label,
            stroke: s.color,
            width: kind === 'area' ? 2 : 0,
            fill: kind === 'area' ? `${s.color}22` : s.color,
            points: { show: false },
            value: (_u: uPlot, v: number | null) => (v == null ? '' : format(v, s.label)),
            ...(kind === 'bars' && bars ? { paths: bars } : {}),
          })),
        ],
      },
      [days.map((d) => d / 1000), ...series.map((s) => s.values)],
      element,
    );
    const resize = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(element.clientWidth, 200), height });
    });
    resize.observe(element);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, series, kind, format, height]);

  return <div className="chart" ref={box} data-testid={testId} />;
}
