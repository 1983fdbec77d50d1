/**
 * An Atlassian Statuspage (notices.md section 1, "any"): `GET URL/api/v2/summary.json`, its
 * scheduled maintenances (planned) and incidents as windows. Times are ISO 8601; a list sent as
 * `null` is empty. A maintenance that vanishes is judged by the notices step (canceled before
 * its `scheduled_for`, completed after), not here.
 */
import { FieldError, type Json } from '../../exchange/read';
import type { Maintenance, MaintenanceState, NoticeRead, Scope } from '../model';
import type { NoticeRequest, NoticeSource } from '../source';
import { decodeJson, isoTime, object, records, requiredText, text } from './read';

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

/** `funding` when an affected component (of the updates, else of the window) is about deposits or withdrawals. */
function scopeOf(o: Json): Scope {
  const affected = records(o.incident_updates, 'incident_updates', true).flatMap((u) => records(u.affected_components, 'affected_components', true));
  const components = affected.length > 0 ? affected : records(o.components, 'components', true);
  const funding = components.some((c) => /deposit|withdraw/i.test(text(c, 'name') ?? ''));
  return funding ? 'funding' : 'exchange';
}

function stateOf(o: Json, states: Readonly<Record<string, MaintenanceState>>): MaintenanceState {
  const state = states[requiredText(o, 'status')];
  if (state === undefined) throw new FieldError('status is not one Statuspage documents');
  return state;
}

function window(o: Json, incident: boolean): Omit<Maintenance, 'exchange'> {
  const begins = incident ? (isoTime(o, 'started_at') ?? isoTime(o, 'created_at')) : isoTime(o, 'scheduled_for');
  if (begins === null) throw new FieldError(incident ? 'created_at is missing' : 'scheduled_for is missing');
  return {
    id: requiredText(o, 'id'),
    title: requiredText(o, 'name'),
    state: stateOf(o, incident ? INCIDENT_STATES : MAINTENANCE_STATES),
    begins,
    ends: incident ? isoTime(o, 'resolved_at') : isoTime(o, 'scheduled_until'),
    origin: incident ? 'incident' : 'planned',
    scope: scopeOf(o),
    coins: [],
    symbols: [],
    url: text(o, 'shortlink'),
    source: 'statuspage',
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
