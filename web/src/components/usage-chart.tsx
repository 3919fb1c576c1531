// Requests per second over the last two minutes, one line per status class, with a time axis, a
// count axis and a legend (uPlot: small, canvas-based, no dependencies). The table beside it on
// the Usage page carries the same numbers for screen readers, so the canvas is hidden from them.
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { StatusClass } from '../live.js';

export const STATUS_CLASSES: StatusClass[] = ['2xx', '4xx', '429', '5xx'];
const SECONDS = 120;
const HEIGHT = 180;

/** A colour the stylesheet gives (so dark mode applies): the text colour of an element of that class. */
function cssColour(host: Element, className: string): string {
  const probe = document.createElement('span');
  probe.className = className;
  host.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

/** [times, ...one series per class] for the last SECONDS seconds, the newest at `now`. */
function chartData(byClass: Record<StatusClass, number[]>, now: number): uPlot.AlignedData {
  const times = Array.from({ length: SECONDS }, (_, i) => now - SECONDS + 1 + i);
  const series = STATUS_CLASSES.map((k) => {
    const values = byClass[k].slice(-SECONDS);
    return [...Array<number>(SECONDS - values.length).fill(0), ...values];
  });
  return [times, ...series];
}

function options(host: HTMLElement, width: number): uPlot.Options {
  const axis = cssColour(host, 'chart-axis');
  const grid = cssColour(host, 'chart-grid');
  const axisStyle = { stroke: axis, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  return {
    width,
    height: HEIGHT,
    scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(5, Math.ceil(max * 1.1))] } },
    axes: [
      { ...axisStyle, label: 'Time' },
      { ...axisStyle, label: 'Requests/s', size: 56, values: (_u, ticks) => ticks.map((t) => (Number.isInteger(t) ? String(t) : '')) },
    ],
    series: [
      { label: 'Time' },
      ...STATUS_CLASSES.map((k) => ({
        label: k,
        stroke: cssColour(host, `class-${k}`),
        width: 2,
        points: { show: false },
        value: (_u: uPlot, v: number | null) => (v === null ? '—' : `${v}/s`),
      })),
    ],
    cursor: { drag: { x: false, y: false } },
  };
}

export function UsageChart(props: { byClass: Record<StatusClass, number[]> }) {
  const host = useRef<HTMLDivElement>(null);
  const plot = useRef<uPlot | null>(null);
  useEffect(() => {
    const el = host.current!;
    const made = new uPlot(options(el, el.clientWidth || 600), chartData(props.byClass, Math.floor(Date.now() / 1000)), el);
    plot.current = made;
    // The canvas is drawn, not laid out: follow the box's width (sidebar, window size).
    const resize = new ResizeObserver(() => made.setSize({ width: el.clientWidth, height: HEIGHT }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      made.destroy();
      plot.current = null;
    };
  }, []);
  useEffect(() => plot.current?.setData(chartData(props.byClass, Math.floor(Date.now() / 1000))), [props.byClass]);
  return (
    <figure class="chart-box">
      <div ref={host} class="usage-chart" aria-hidden="true" />
      <figcaption>Requests per second, last two minutes, by status class (the table has the last ten seconds)</figcaption>
    </figure>
  );
}
