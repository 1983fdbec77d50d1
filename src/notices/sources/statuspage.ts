/**
 * An Atlassian Statuspage (notices.md section 1, "any"): `GET URL/api/v2/summary.json`, its
 * scheduled maintenances (planned) and incidents as windows. Times are ISO 8601; a list sent as
 * `null` is empty. A maintenance that vanishes is judged by the notices step (canceled before
 * its `scheduled_for`, completed after), not here.
 */
import { FieldError, type Json } from '../../exchange/read';
import type { MaintenanceState, NoticeRead, Scope, WindowRead } from '../model';
import type { NoticeRequest, NoticeSource } from '../source';
import { decodeJson, isoTime, object, records, requiredText, serviceOf, text } from './read';

const MAINTENANCE_STATES: Readonly<Record<string, MaintenanceState>> = {
  scheduled: 'scheduled',
  in_progress: 'ongoing',
  'in progress': 'ongoing',
  verifying: 'ongoing',
  completed: 'completed',
};
const INCIDENT_STATES: Readonly<Record<string, MaintenanceState>> = {
  investigating: 'ongoing',
  identified: 'ongoing',
  monitoring: 'ongoing',
  resolved: 'completed',
  postmortem: 'completed',
};

/** The window's components: those its updates name as affected, else its own list. */
function componentsOf(o: Json): string[] {
  const affected = records(o.incident_updates, 'incident_updates', true).flatMap((u) => records(u.affected_components, 'affected_components', true));
  const components = affected.length > 0 ? affected : records(o.components, 'components', true);
  return [...new Set(components.map((c) => text(c, 'name')).filter((n): n is string => n !== null))];
}

/**
 * The scope of a window by what its components are: every one a funding component (deposits,
 * withdrawals, wallets) -> funding, or with api and other ones beside; funding and trading ones
 * together -> exchange (an exchange-wide upgrade takes both); trading ones -> trading; API ones
 * -> api; none named -> exchange (the page as a whole); else other.
 */
function scopeOf(components: readonly string[]): Scope {
  if (components.length === 0) return 'exchange';
  const kinds = new Set(components.map(serviceOf));
  if (kinds.has('funding')) return kinds.has('trading') ? 'exchange' : 'funding';
  if (kinds.has('trading')) return 'trading';
  return kinds.has('api') ? 'api' : 'other';
}

function stateOf(o: Json, states: Readonly<Record<string, MaintenanceState>>): MaintenanceState {
  const state = states[requiredText(o, 'status')];
  if (state === undefined) throw new FieldError('status is not one Statuspage documents');
  return state;
}

function window(o: Json, incident: boolean): WindowRead {
  const components = componentsOf(o);
  const begins = incident ? (isoTime(o, 'started_at') ?? isoTime(o, 'created_at')) : isoTime(o, 'scheduled_for');
  if (begins === null) throw new FieldError(incident ? 'created_at is missing' : 'scheduled_for is missing');
  return {
    id: requiredText(o, 'id'),
    title: requiredText(o, 'name'),
    state: stateOf(o, incident ? INCIDENT_STATES : MAINTENANCE_STATES),
    begins,
    ends: incident ? isoTime(o, 'resolved_at') : isoTime(o, 'scheduled_until'),
    origin: incident ? 'incident' : 'planned',
    scope: scopeOf(components),
    coins: [],
    symbols: [],
    url: text(o, 'shortlink'),
    source: 'statuspage',
    // What the components name (`USDT deposits and withdrawals`) is what the window covers.
    named: components,
  };
}

/** The Statuspage at `baseUrl` (its own host, not the exchange's). */
export function statuspage(baseUrl: string): NoticeSource {
  return {
    name: 'statuspage',
    baseUrl,
    plan: (): NoticeRequest[] => [{ path: '/api/v2/summary.json', weight: 1 }],
    decode(_path: string, body: string): NoticeRead {
      return decodeJson('statuspage', body, (json) => {
        const o = object(json, 'answer');
        return {
          maintenance: [
            ...records(o.scheduled_maintenances, 'scheduled_maintenances', true).map((m) => window(m, false)),
            ...records(o.incidents, 'incidents', true).map((i) => window(i, true)),
          ],
        };
      });
    },
  };
}
