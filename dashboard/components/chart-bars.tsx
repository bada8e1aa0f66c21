/**
 * Two small charts drawn by hand in SVG (a chart library would cost more than the whole screen).
 * Each stretches to its box through its viewBox; its words and numbers are HTML beside it, so they
 * keep their size at any width, and a table next to each chart carries the same figures.
 */
import type { JSX } from 'preact';

export interface Column {
  /** What the column is, as the axis writes it ("Nov 6"). */
  label: string;
  value: number;
  /** The value as a reader reads it ("€240.00"). */
  text: string;
}

/** 1, 2 or 5 times a power of ten: the smallest such top at or above `max`, so the grid reads round. */
export function roundTop(max: number): number {
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * power >= max) return step * power;
  return 10 * power;
}

const STEP = 10;

/**
 * One column per entry, on a scale from 0 to a round top. The SVG is an image with a title and a
 * description that sum it up; the scale and a few labels of the axis are HTML around it.
 */
export function ColumnChart(props: { id: string; title: string; summary: string; columns: Column[]; scale: (n: number) => string }): JSX.Element {
  const { id, columns } = props;
  const top = roundTop(Math.max(0, ...columns.map((c) => c.value)));
  const width = Math.max(1, columns.length) * STEP;
  const ticks = columns.length > 2 ? [0, Math.floor((columns.length - 1) / 2), columns.length - 1] : columns.map((_, i) => i);
  return (
    <figure class="chart">
      <div class="chart-y" aria-hidden="true">
        <span>{props.scale(top)}</span>
        <span>{props.scale(top / 2)}</span>
        <span>{props.scale(0)}</span>
      </div>
      <svg class="chart-svg" viewBox={`0 0 ${width} 100`} preserveAspectRatio="none" role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <title id={`${id}-title`}>{props.title}</title>
        <desc id={`${id}-desc`}>{props.summary}</desc>
        <line class="chart-grid" x1="0" x2={width} y1="0.5" y2="0.5" />
        <line class="chart-grid" x1="0" x2={width} y1="50" y2="50" />
        {columns.map((c, i) => {
          const height = (c.value / top) * 100;
          return (
            <rect key={c.label} class="chart-bar" x={i * STEP + 1.5} width={STEP - 3} y={100 - height} height={height}>
              <title>{`${c.label}: ${c.text}`}</title>
            </rect>
          );
        })}
        <line class="chart-axis" x1="0" x2={width} y1="99.5" y2="99.5" />
      </svg>
      <div class="chart-x" aria-hidden="true">
        {ticks.map((i) => (
          <span key={i}>{columns[i]?.label}</span>
        ))}
      </div>
    </figure>
  );
}

export interface Meter {
  /** The series' name, beside its bar ("Last 30 days"). */
  name: string;
  /** 0 to 1. */
  share: number;
  /** What the bar says, after it ("39%", or "No tours"). */
  text: string;
  /** The series' colour class. */
  tone: 'past' | 'ahead';
}

/**
 * Rows of horizontal bars on a 0–100% track, one per series, under a heading each (an experience).
 * The names and percentages are text, read as they stand; the bars only draw them.
 */
export function MeterRows({ rows }: { rows: { title: string; meters: Meter[] }[] }): JSX.Element {
  return (
    <ul class="meters">
      {rows.map((row) => (
        <li key={row.title}>
          <p class="meter-title">{row.title}</p>
          {row.meters.map((m) => (
            <p class="meter" key={m.name}>
              <span class="meter-name">{m.name}</span>
              <svg class="meter-svg" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
                <rect class="meter-track" x="0" y="0" width="100" height="10" />
                <rect class={`meter-bar ${m.tone}`} x="0" y="0" width={Math.min(1, Math.max(0, m.share)) * 100} height="10" />
              </svg>
              <span class="meter-value">{m.text}</span>
            </p>
          ))}
        </li>
      ))}
    </ul>
  );
}
