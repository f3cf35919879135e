/**
 * A bar chart drawn on the server as SVG (no JavaScript): one bar per day, the largest value and the first and last
 * dates labelled. The SVG is an image with a title and description; the figures are also given as a table for
 * screen readers (`sr-only`), which the chart's description points to.
 */
import { useT } from "@/lib/i18n/context.ts";

/** One bar: its date (`YYYY-MM-DD`) and value. */
export interface Bar {
  date: string;
  value: number;
}

const WIDTH = 600;
const HEIGHT = 180;
const TOP = 16;
const BOTTOM = 22;

export function BarChart(
  { id, title, bars, format = String, color = "#4338ca" }: {
    id: string;
    title: string;
    bars: Bar[];
    format?: (value: number) => string;
    color?: string;
  },
) {
  const t = useT();
  const max = Math.max(1, ...bars.map((b) => b.value));
  const step = WIDTH / Math.max(1, bars.length);
  const plot = HEIGHT - TOP - BOTTOM;
  const sum = bars.reduce((s, b) => s + b.value, 0);
  const first = bars[0]?.date;
  const last = bars[bars.length - 1]?.date;
  return (
    <figure class="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <figcaption id={`${id}-title`} class="font-semibold text-slate-900">
        {title}
        <span class="ml-2 text-sm font-normal text-slate-700">
          {t("common.chart.summary", { total: format(sum), highest: format(max) })}
        </span>
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        class="mt-2 h-auto w-full"
        role="img"
        aria-labelledby={`${id}-title`}
        aria-describedby={`${id}-table`}
      >
        <line x1="0" x2={WIDTH} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} stroke="#94a3b8" stroke-width="1" />
        <line x1="0" x2={WIDTH} y1={TOP} y2={TOP} stroke="#e2e8f0" stroke-width="1" stroke-dasharray="4 4" />
        <text x="2" y={TOP - 4} font-size="11" fill="#334155">{format(max)}</text>
        {bars.map((bar, i) => {
          const h = Math.round(bar.value / max * plot);
          return (
            <rect
              key={bar.date}
              x={(i * step + step * 0.15).toFixed(1)}
              y={HEIGHT - BOTTOM - h}
              width={(step * 0.7).toFixed(1)}
              height={h}
              fill={color}
              rx="1.5"
            >
              <title>{`${t.date(bar.date)}: ${format(bar.value)}`}</title>
            </rect>
          );
        })}
        {first && <text x="0" y={HEIGHT - 6} font-size="11" fill="#334155">{t.date(first)}</text>}
        {last && <text x={WIDTH} y={HEIGHT - 6} font-size="11" fill="#334155" text-anchor="end">{t.date(last)}</text>}
      </svg>
      <table id={`${id}-table`} class="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{t("common.chart.date")}</th>
            <th scope="col">{t("common.chart.value")}</th>
          </tr>
        </thead>
        <tbody>
          {bars.map((bar) => (
            <tr key={bar.date}>
              <th scope="row">{t.date(bar.date)}</th>
              <td>{format(bar.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
