/**
 * Checks across the config that zod cannot express per value: unique names and references
 * between sections. They read the unvalidated value (see LoadYamlOptions.check), so they tolerate
 * any shape and stay silent about what the schema reports anyway.
 */
import type { PathSegment, YamlIssue } from '../lib/yaml-schema';
import type { ReceiverRegistry } from '../notify/receiver-registry';

type Entry = Readonly<Record<string, unknown>>;

function isEntry(value: unknown): value is Entry {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(value: unknown): Array<Entry | undefined> {
  return Array.isArray(value) ? value.map((item: unknown) => (isEntry(item) ? item : undefined)) : [];
}

/** A receiver has exactly one of the `kinds`. The issue's path is relative to the receiver. */
export function receiverKindIssue(receiver: Entry, kinds: readonly string[]): YamlIssue | undefined {
  const given = kinds.filter((kind) => receiver[kind] !== undefined);
  const who = typeof receiver.name === 'string' ? `receiver "${receiver.name}"` : 'receiver';
  if (given.length === 0) {
    return { path: [], message: `${who} needs one of: ${kinds.join(', ')}` };
  }
  const [first, second] = given;
  if (second === undefined || first === undefined) return undefined;
  return {
    path: [second],
    at: 'key',
    message: `${who} has both ${first} and ${second}; list one receiver per kind`,
  };
}

/** The second and later uses of a name, each pointing at its `name:` value. */
function duplicateNames(list: Array<Entry | undefined>, prefix: PathSegment[], what: string): YamlIssue[] {
  const issues: YamlIssue[] = [];
  const firstIndex = new Map<string, number>();
  list.forEach((entry, i) => {
    const name = entry?.name;
    if (typeof name !== 'string') return;
    const first = firstIndex.get(name);
    if (first === undefined) {
      firstIndex.set(name, i);
      return;
    }
    issues.push({ path: [...prefix, i, 'name'], message: `duplicate ${what} name "${name}" (first used by ${prefix.join('.')}[${first}])` });
  });
  return issues;
}

export function crossCheck(raw: unknown, receiverKinds: ReceiverRegistry): YamlIssue[] {
  if (!isEntry(raw)) return [];
  const issues: YamlIssue[] = [];
  issues.push(...duplicateNames(entries(raw.exchanges), ['exchanges'], 'exchange'));

  const notify = isEntry(raw.notify) ? raw.notify : {};
  const receivers = entries(notify.receivers);
  issues.push(...duplicateNames(receivers, ['notify', 'receivers'], 'receiver'));
  receivers.forEach((receiver, i) => {
    const issue = receiver === undefined ? undefined : receiverKindIssue(receiver, receiverKinds.kinds);
    if (issue !== undefined) issues.push({ ...issue, path: ['notify', 'receivers', i, ...issue.path] });
  });

  // With no receivers listed, the implicit one (see ReceiverRegistry.fallback) is the one routes can name.
  const names = receivers.map((r) => r?.name).filter((n): n is string => typeof n === 'string');
  const known = receivers.length > 0 ? names : [receiverKinds.fallback.name];
  entries(notify.routes).forEach((route, i) => {
    const targets: unknown = route?.receivers;
    if (!Array.isArray(targets)) return;
    targets.forEach((target: unknown, j) => {
      if (typeof target !== 'string' || known.includes(target)) return;
      issues.push({
        path: ['notify', 'routes', i, 'receivers', j],
        message: `unknown receiver "${target}" (known: ${known.join(', ')})`,
      });
    });
  });
  const digest: unknown = isEntry(notify.digest) ? notify.digest.receivers : undefined;
  if (Array.isArray(digest)) {
    digest.forEach((target: unknown, j) => {
      if (typeof target !== 'string' || known.includes(target)) return;
      issues.push({ path: ['notify', 'digest', 'receivers', j], message: `unknown receiver "${target}" (known: ${known.join(', ')})` });
    });
  }
  return issues;
}
