#!/usr/bin/env node
// Writes config/grafana/spotwatch.json, the Grafana dashboard. The panels are data here, so
// the test that runs every expression against a real Prometheus reads the same source.
import { writeFileSync } from 'node:fs';

const ds = { type: 'prometheus', uid: '${datasource}' };
let id = 0;
let y = 0;

function panel(type, title, targets, gridPos, extra = {}) {
  id += 1;
  return {
    id,
    type,
    title,
    datasource: ds,
    gridPos,
    targets: targets.map((t, i) => ({ datasource: ds, refId: String.fromCharCode(65 + i), expr: t.expr, legendFormat: t.legend ?? '', ...(t.instant ? { instant: true, range: false, format: 'table' } : {}) })),
    ...extra,
  };
}

function row(title) {
  id += 1;
  const r = { id, type: 'row', title, collapsed: false, gridPos: { h: 1, w: 24, x: 0, y }, panels: [] };
  y += 1;
  return r;
}

const X = '{exchange=~"$exchange"}';
const XS = '{exchange=~"$exchange",symbol=~"$symbol"}';
const panels = [];
const add = (p) => panels.push(p);

add(row('Exchange health'));
add(panel('stat', 'Up', [{ expr: `spotwatch_up${X}`, legend: '{{exchange}}' }], { h: 4, w: 4, x: 0, y }, {
  fieldConfig: { defaults: { mappings: [{ type: 'value', options: { 0: { text: 'DOWN', color: 'red' }, 1: { text: 'UP', color: 'green' } } }], color: { mode: 'thresholds' }, thresholds: { mode: 'absolute', steps: [{ color: 'red', value: null }, { color: 'green', value: 1 }] } }, overrides: [] },
}));
add(panel('stat', 'Since last successful poll', [{ expr: `time() - spotwatch_last_success_timestamp_seconds${X}`, legend: '{{exchange}} {{endpoint}}' }], { h: 4, w: 6, x: 4, y }, { fieldConfig: { defaults: { unit: 's' }, overrides: [] } }));
add(panel('stat', 'Coins listed', [{ expr: `spotwatch_coins${X}`, legend: '{{exchange}}' }], { h: 4, w: 4, x: 10, y }));
add(panel('stat', 'Request weight used', [{ expr: `spotwatch_request_weight_used${X}`, legend: '{{exchange}}' }], { h: 4, w: 4, x: 14, y }));
add(panel('stat', 'Networks closed', [{ expr: `count(spotwatch_network_withdraw_enabled${X} == 0 or spotwatch_network_deposit_enabled${X} == 0)`, legend: 'closed' }], { h: 4, w: 6, x: 18, y }));
y += 4;
add(panel('timeseries', 'Poll duration (p95)', [{ expr: `histogram_quantile(0.95, sum by (le, exchange, endpoint) (rate(spotwatch_poll_duration_seconds_bucket${X}[5m])))`, legend: '{{exchange}} {{endpoint}}' }], { h: 8, w: 12, x: 0, y }, { fieldConfig: { defaults: { unit: 's' }, overrides: [] } }));
add(panel('timeseries', 'Poll errors by kind', [{ expr: `sum by (exchange, endpoint, kind) (rate(spotwatch_poll_errors_total${X}[5m]))`, legend: '{{exchange}} {{endpoint}} {{kind}}' }], { h: 8, w: 12, x: 12, y }, { fieldConfig: { defaults: { unit: 'reqps' }, overrides: [] } }));
y += 8;

add(row('Networks'));
add(panel('timeseries', 'Networks disabled over time', [
  { expr: `count by (exchange) (spotwatch_network_withdraw_enabled${X} == 0)`, legend: '{{exchange}} withdrawals closed' },
  { expr: `count by (exchange) (spotwatch_network_deposit_enabled${X} == 0)`, legend: '{{exchange}} deposits closed' },
  { expr: `sum by (exchange, direction) (spotwatch_network_desc_present${X})`, legend: '{{exchange}} {{direction}} messages' },
], { h: 8, w: 12, x: 0, y }));
add(panel('timeseries', 'Changes by kind', [{ expr: `sum by (kind) (increase(spotwatch_changes_total${X}[5m]))`, legend: '{{kind}}' }], { h: 8, w: 12, x: 12, y }));
y += 8;
add(panel('table', 'Networks with withdrawals or deposits closed', [
  { expr: `spotwatch_network_withdraw_enabled${X} == 0`, instant: true },
  { expr: `spotwatch_network_deposit_enabled${X} == 0`, instant: true },
], { h: 10, w: 24, x: 0, y }, {
  transformations: [
    { id: 'merge', options: {} },
    { id: 'organize', options: { excludeByName: { Time: true, __name__: true, instance: true, job: true }, renameByName: { 'Value #A': 'withdrawals open', 'Value #B': 'deposits open' } } },
  ],
}));
y += 10;

add(row('Prices'));
add(panel('timeseries', 'Last price', [{ expr: `spotwatch_ticker_last_price${XS}`, legend: '{{symbol}}' }], { h: 8, w: 12, x: 0, y }));
add(panel('timeseries', 'Spread', [{ expr: `spotwatch_ticker_spread_ratio${XS} * 10000`, legend: '{{symbol}} bps' }], { h: 8, w: 12, x: 12, y }));
y += 8;
add(panel('timeseries', '24-hour change', [{ expr: `spotwatch_ticker_price_change_ratio${XS}`, legend: '{{symbol}}' }], { h: 8, w: 12, x: 0, y }, { fieldConfig: { defaults: { unit: 'percentunit' }, overrides: [] } }));
add(panel('timeseries', '24-hour quote volume', [{ expr: `spotwatch_ticker_quote_volume${XS}`, legend: '{{symbol}}' }], { h: 8, w: 12, x: 12, y }));
y += 8;

add(row('Alerts and notifications'));
add(panel('timeseries', 'Alerts firing', [{ expr: 'sum by (alertname, severity) (spotwatch_alerts_firing)', legend: '{{alertname}} ({{severity}})' }], { h: 8, w: 8, x: 0, y }));
add(panel('timeseries', 'Notification outcomes', [{ expr: 'sum by (receiver, outcome) (increase(spotwatch_notifications_total[5m]))', legend: '{{receiver}} {{outcome}}' }], { h: 8, w: 8, x: 8, y }));
add(panel('timeseries', 'Notification latency (p95) and outbox', [
  { expr: 'histogram_quantile(0.95, sum by (le, receiver) (rate(spotwatch_notification_latency_seconds_bucket[15m])))', legend: '{{receiver}} p95 latency' },
  { expr: 'spotwatch_outbox_pending', legend: '{{receiver}} pending' },
], { h: 8, w: 8, x: 16, y }));
y += 8;

const dashboard = {
  uid: 'spotwatch',
  title: 'spotwatch',
  description: 'Exchange status from spotwatch: health, networks closed, changes, prices, alerts and notifications.',
  tags: ['spotwatch', 'exchange'],
  timezone: 'utc',
  schemaVersion: 39,
  version: 1,
  refresh: '30s',
  time: { from: 'now-6h', to: 'now' },
  templating: {
    list: [
      { name: 'datasource', label: 'Prometheus', type: 'datasource', query: 'prometheus', current: {}, hide: 0 },
      { name: 'exchange', label: 'Exchange', type: 'query', datasource: ds, query: { query: 'label_values(spotwatch_up, exchange)', refId: 'exchange' }, definition: 'label_values(spotwatch_up, exchange)', refresh: 2, multi: true, includeAll: true, allValue: '.*', current: { text: 'All', value: '$__all' } },
      { name: 'symbol', label: 'Symbol', type: 'query', datasource: ds, query: { query: 'label_values(spotwatch_ticker_last_price{exchange=~"$exchange"}, symbol)', refId: 'symbol' }, definition: 'label_values(spotwatch_ticker_last_price{exchange=~"$exchange"}, symbol)', refresh: 2, multi: true, includeAll: false, current: { text: 'BTCUSDT', value: ['BTCUSDT'] } },
    ],
  },
  annotations: { list: [] },
  panels,
};

writeFileSync(new URL('../config/grafana/spotwatch.json', import.meta.url), `${JSON.stringify(dashboard, null, 2)}\n`);
console.log(`config/grafana/spotwatch.json: ${panels.filter((p) => p.type !== 'row').length} panels`);
