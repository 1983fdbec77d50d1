/**
 * An Atlassian Statuspage's summary, GET {page}/api/v2/summary.json
 * (https://developer.statuspage.io/ and any public page's https://<page>/api/v2, e.g. HTX's
 * status.huobigroup.com announced in https://www.huobi.com/support/en-us/detail/900000290806/):
 * `{page, components, incidents, scheduled_maintenances, status}`, times ISO 8601. The summary
 * lists unresolved incidents (investigating, identified, monitoring) and upcoming or active
 * maintenances (scheduled, in_progress) only: a window leaves it when completed or canceled.
 * Planned windows are maintenances; unplanned ones and incidents are incidents. Components are
 * the exchange's services, plus a "COIN deposits and withdrawals" one per coin a funding window
 * names, so a funding window's affected component says deposit and withdraw.
 */
import type { WindowScope, WindowView } from '../../market/notices';
import type { Answer } from '../types';

const PAGE_ID = 'swsim0000001';
const SERVICES: { id: string; name: string; scope: WindowScope }[] = [
  { id: 'cmp0trading', name: 'Trading', scope: 'trading' },
  { id: 'cmp0funding', name: 'Deposits and withdrawals', scope: 'funding' },
  { id: 'cmp0api', name: 'API', scope: 'api' },
  { id: 'cmp0website', name: 'Website and apps', scope: 'other' },
];

interface Component {
  id: string;
  name: string;
}

const iso = (ms: number): string => new Date(ms).toISOString();

function coinComponent(coin: string): Component {
  return { id: `cmp0coin${coin.toLowerCase()}`, name: `${coin} deposits and withdrawals` };
}

function affected(w: WindowView): Component[] {
  if (w.scope === 'exchange') return SERVICES;
  if (w.scope === 'funding' && w.coins.length > 0) return w.coins.map(coinComponent);
  return SERVICES.filter((s) => s.scope === w.scope);
}

const isMaintenance = (w: WindowView): boolean => w.origin === 'planned';

export function statuspageSummary(windows: readonly WindowView[], base: string, name: string, now: number): Answer {
  const open = windows.filter((w) => (isMaintenance(w) ? w.state === 'scheduled' || w.state === 'ongoing' : w.state === 'ongoing'));
  const componentStatus = new Map<string, string>();
  for (const w of open.filter((x) => x.state === 'ongoing')) {
    for (const c of affected(w)) {
      if (componentStatus.get(c.id) !== 'major_outage') componentStatus.set(c.id, isMaintenance(w) ? 'under_maintenance' : 'major_outage');
    }
  }
  const coinComponents = [...new Set(open.filter((w) => w.scope === 'funding').flatMap((w) => w.coins))].map(coinComponent);
  const component = (c: Component, i: number): Record<string, unknown> => ({
    id: c.id, name: c.name, status: componentStatus.get(c.id) ?? 'operational', created_at: iso(0), updated_at: iso(now), position: i + 1,
    description: null, showcase: false, start_date: null, group_id: null, page_id: PAGE_ID, group: false, only_show_if_degraded: false,
  });
  const entry = (w: WindowView): Record<string, unknown> => {
    const status = isMaintenance(w) ? (w.state === 'ongoing' ? 'in_progress' : 'scheduled') : (w.origin === 'incident' ? 'investigating' : 'identified');
    const newStatus = isMaintenance(w) ? 'under_maintenance' : 'major_outage';
    const components = affected(w).map(component);
    return {
      id: w.id, name: w.title, status, created_at: iso(w.created), updated_at: iso(w.updated), monitoring_at: null, resolved_at: null,
      impact: isMaintenance(w) ? 'maintenance' : 'major', shortlink: w.url ?? `${base}/incidents/${w.id}`, started_at: iso(w.begins), page_id: PAGE_ID,
      incident_updates: [{
        id: `${w.id}-u1`, status, body: w.title, incident_id: w.id, created_at: iso(w.updated), updated_at: iso(w.updated), display_at: iso(w.updated),
        affected_components: affected(w).map((c) => ({ code: c.id, name: c.name, old_status: 'operational', new_status: newStatus })),
        deliver_notifications: true, custom_tweet: null, tweet_id: null,
      }],
      components,
      ...(isMaintenance(w) ? { scheduled_for: iso(w.begins), scheduled_until: w.ends === null ? null : iso(w.ends) } : {}),
    };
  };
  const incidents = open.filter((w) => !isMaintenance(w)).map(entry);
  const maintenances = open.filter(isMaintenance).map(entry);
  const outage = incidents.length > 0;
  const inMaintenance = open.some((w) => isMaintenance(w) && w.state === 'ongoing');
  const updated = windows.reduce((t, w) => Math.max(t, w.updated), 0);
  return {
    status: 200,
    body: {
      page: { id: PAGE_ID, name, url: base, time_zone: 'Etc/UTC', updated_at: iso(updated === 0 ? now : updated) },
      components: [...SERVICES, ...coinComponents].map(component),
      incidents,
      scheduled_maintenances: maintenances,
      status: outage
        ? { indicator: 'major', description: 'Partial System Outage' }
        : inMaintenance ? { indicator: 'maintenance', description: 'Service Under Maintenance' } : { indicator: 'none', description: 'All Systems Operational' },
    },
  };
}
