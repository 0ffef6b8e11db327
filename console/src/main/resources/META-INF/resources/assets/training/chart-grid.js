// A grid of small ECharts line charts, one per named metric, that can be fed new points: charts are created for
// names seen for the first time and updated in place otherwise, so a running job's curves grow without a reload.
import * as echarts from '/webjars/echarts/5.3.1/dist/echarts.esm.min.js';
import { h } from '../shared/dom.js';

/** A metric value short enough for a tooltip or a table cell. */
export function formatMetric(value) {
  if (value === undefined || value === null || Number.isNaN(value)) return '';
  const abs = Math.abs(value);
  if (abs !== 0 && (abs < 1e-3 || abs >= 1e6)) return value.toExponential(2);
  return String(Number(value.toPrecision(4)));
}

export class ChartGrid {
  /** @param {HTMLElement} container where the charts go (attached to the page, so they have a size) */
  constructor(container, { xName }) {
    this.container = container;
    this.xName = xName;
    this.charts = new Map();
  }

  /**
   * @param {Array<{name: string, series: Array<{name: string, points: Array<[number, number]>}>}>} metrics in display order
   */
  update(metrics) {
    for (const metric of metrics) {
      let chart = this.charts.get(metric.name);
      const label = `${metric.name} by ${this.xName}: ${metric.series.map((series) => series.name).join(', ')}`;
      if (!chart) {
        const box = h('div', { class: 'chart', role: 'img', 'aria-label': label });
        this.container.append(h('figure', { class: 'chart-card' }, h('figcaption', {}, metric.name), box));
        chart = echarts.init(box, null, { renderer: 'svg' });
        this.charts.set(metric.name, chart);
      } else {
        chart.getDom().setAttribute('aria-label', label);
      }
      chart.setOption({
        animation: false,
        grid: { left: 56, right: 16, top: 28, bottom: 30 },
        legend: { top: 0, data: metric.series.map((series) => series.name) },
        tooltip: { trigger: 'axis', valueFormatter: formatMetric },
        xAxis: { type: 'value', name: this.xName, nameLocation: 'middle', nameGap: 22, minInterval: 1 },
        yAxis: { type: 'value', scale: true, axisLabel: { formatter: formatMetric } },
        series: metric.series.map((series) => ({ name: series.name, type: 'line', showSymbol: true, symbolSize: 5,
          data: series.points })),
      });
    }
  }

  dispose() {
    for (const chart of this.charts.values()) chart.dispose();
    this.charts.clear();
  }
}
