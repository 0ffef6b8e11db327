// The trace timeline: one bar per call from its start for its latency, in tree order, drawn by ECharts.
import * as echarts from '/webjars/echarts/5.3.1/dist/echarts.esm.min.js';
import { opShortName } from '../shared/api.js';
import { formatLatency } from '../shared/dom.js';

const COLOURS = { success: '#2f855a', error: '#c53030', running: '#2b6cb0', descendant_error: '#c05621' };

export function timeline(container, rows, onSelect) {
  const start = Math.min(...rows.map(({ call }) => Date.parse(call.started_at)));
  const now = Date.now();
  const data = rows.map(({ call }, index) => {
    const from = Date.parse(call.started_at) - start;
    const to = (call.ended_at ? Date.parse(call.ended_at) : now) - start;
    return { value: [index, from, Math.max(to, from), call.id],
      itemStyle: { color: COLOURS[call.summary?.weave?.status] ?? '#718096' } };
  });
  container.style.height = `${Math.max(120, rows.length * 26 + 50)}px`;
  const chart = echarts.init(container, null, { renderer: 'svg' });
  chart.setOption({
    animation: false,
    grid: { left: 160, right: 24, top: 10, bottom: 30 },
    tooltip: { formatter: ({ value }) => `${opShortName(rows[value[0]].call.op_name)}: ${formatLatency(value[2] - value[1])}` },
    xAxis: { type: 'value', min: 0, axisLabel: { formatter: (ms) => formatLatency(ms) } },
    yAxis: { type: 'category', inverse: true, data: rows.map(({ call, depth }) => `${'  '.repeat(depth)}${opShortName(call.op_name)}`),
      axisLabel: { align: 'left', margin: 150 } },
    series: [{
      type: 'custom',
      encode: { x: [1, 2], y: 0 },
      data,
      renderItem: (params, api) => {
        const from = api.coord([api.value(1), api.value(0)]);
        const to = api.coord([api.value(2), api.value(0)]);
        const height = api.size([0, 1])[1] * 0.6;
        return { type: 'rect', shape: { x: from[0], y: from[1] - height / 2, width: Math.max(to[0] - from[0], 2), height },
          style: api.style() };
      },
    }],
  });
  chart.on('click', ({ value }) => onSelect(value[3]));
  return chart;
}
