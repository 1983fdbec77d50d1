// The storm figure: every network of an exchange closes at once. The built daemon watches the
// reference exchange (both real processes) with a `state: withdraw_disabled` rule and a
// `change: withdraw_disabled` rule, neither with a coin filter, and a real loopback webhook;
// /healthz is sampled back to back throughout. Run alone: `node bench/storm.mjs` (after a build).
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { setPriority, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { quantile, start, waitFor } from './processes.mjs';

/**
 * One storm. `poll`, `groupWait`, `groupInterval` are durations as the config writes them;
 * `settleMs` is how long to watch after the first notification (further flushes, repeats).
 */
export async function storm({ coins = 4000, poll = '5s', groupWait = '2s', groupInterval = '5s', settleMs = 8_000, nodeFlags = [], log = () => undefined } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'spotwatch-storm-'));
  const sim = start(['simulate', '--listen', '127.0.0.1:0', '--coins', String(coins), '--seed', '1']);
  // The exchange stands for a remote service: on this machine it runs at the lowest priority.
  setPriority(sim.child.pid, 19);
  const posts = [];
  const hook = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      res.end();
      // Parsed after the storm: 3 MB here would delay this process's timing of /healthz.
      posts.push({ at, raw: Buffer.concat(chunks).toString('utf8') });
    });
  });
  await new Promise((r) => hook.listen(0, '127.0.0.1', r));
  let daemon;
  try {
    const simUrl = await waitFor(async () => /listening on (http:\S+)/.exec(sim.output())?.[1], 'the simulator');
    writeFileSync(join(dir, 'rules.yaml'), 'rules:\n  - alert: WithdrawClosed\n    state: withdraw_disabled\n  - alert: WithdrawClosing\n    change: withdraw_disabled\n');
    writeFileSync(
      join(dir, 'spotwatch.yaml'),
      `exchanges:\n  - name: storm\n    base_url: ${simUrl}\n    poll: { coins: ${poll}, tickers: ${poll} }\n    weight_limit: { max: 100000, window: 10s }\n    retries: { max: 0 }\n` +
        `server: { listen: "127.0.0.1:0" }\nstate_dir: ${join(dir, 'data')}\nrules_file: rules.yaml\nlog: { level: info }\n` +
        `notify:\n  group_by: [exchange, alertname]\n  group_wait: ${groupWait}\n  group_interval: ${groupInterval}\n  receivers:\n    - name: hook\n      webhook: { url: "http://127.0.0.1:${hook.address().port}/hook" }\n`,
    );
    daemon = start(['run', '--config', join(dir, 'spotwatch.yaml')], nodeFlags);
    const url = await waitFor(async () => /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(daemon.output())?.[1], 'the daemon').catch(async () => {
      throw new Error(`the daemon did not start:\n${daemon.output().slice(-2000)}`);
    });
    await waitFor(async () => (await fetch(`${url}/readyz`)).status === 200, 'ready');
    const networks = JSON.parse(await (await fetch(`${simUrl}/api/v3/coins`)).text()).flatMap((c) => c.networkList.map((n) => ({ coin: c.coin, network: n.network })));
    await waitFor(async () => posts.length >= 1, 'the notification of the networks closed before the storm', 30_000);
    // /healthz back to back, each request timed from when it was sent.
    const health = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const t = performance.now();
        try {
          const res = await fetch(`${url}/healthz`);
          await res.text();
          health.push({ at: Date.now(), ms: performance.now() - t });
        } catch (err) {
          health.push({ at: Date.now(), ms: performance.now() - t, error: String(err?.cause?.code ?? err) });
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const closedAt = Date.now();
    const res = await fetch(`${simUrl}/-/sim/actions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(networks.map((n) => ({ action: 'set_network', coin: n.coin, network: n.network, set: { withdrawEnable: false } }))),
    });
    if (res.status >= 300) throw new Error(`closing the networks: ${res.status} ${await res.text()}`);
    log(`closed ${networks.length} networks`);
    // The notification of what was closed before the storm has gone; then one per group.
    await waitFor(async () => posts.filter((p) => p.at >= closedAt).length >= 2, 'both notifications', 120_000);
    await new Promise((r) => setTimeout(r, settleMs));
    // SIGTERM in the storm's wake: while groups flush and polls run.
    const t = performance.now();
    daemon.child.kill('SIGTERM');
    const code = await daemon.exited;
    const stopMs = performance.now() - t;
    sampling = false;
    await sampler.catch(() => undefined);
    const told = posts.filter((p) => p.at >= closedAt).map((p) => {
      const body = JSON.parse(p.raw);
      // The newest startsAt is the time of the poll that saw the storm.
      return { at: p.at, groupKey: body.groupKey, alerts: body.alerts.length, sawAt: Math.max(...body.alerts.map((a) => Date.parse(a.startsAt))), down: body.groupLabels?.alertname === 'ExchangeDown' || body.alerts.some((a) => a.labels.alertname === 'ExchangeDown') };
    });
    const byKey = new Map();
    for (const p of told) byKey.set(p.groupKey, [...(byKey.get(p.groupKey) ?? []), p.alerts]);
    const down = told.some((p) => p.down) || /"msg":"poll failed"/.test(daemon.output());
    return {
      networks: networks.length,
      health: health.map((h) => h.ms),
      healthDuring: health.filter((h) => h.at >= closedAt).map((h) => h.ms),
      healthErrors: health.filter((h) => h.error !== undefined).map((h) => h.error),
      firstFromChange: (told[0]?.at ?? NaN) - closedAt,
      firstFromPoll: (told[0]?.at ?? NaN) - (told[0]?.sawAt ?? NaN),
      posts: byKey,
      exitCode: code,
      stopMs,
      exchangeDown: down,
      output: daemon.output(),
    };
  } finally {
    if (daemon && daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    sim.child.kill('SIGTERM');
    hook.close();
    hook.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function stormRows(r, label) {
  const h = r.healthDuring;
  const counts = [...r.posts].map(([k, v]) => `${k.replace(/^.*alertname=/, '').replace(/[}"]/g, '')}: ${v.length} post(s) of ${v.join('+')}`).join('; ');
  return [
    [`storm, ${r.networks} networks closing at once (${label}): /healthz`, `p50 ${quantile(h, 0.5).toFixed(1)} ms`, `p99 ${quantile(h, 0.99).toFixed(1)} ms`, `max ${Math.max(...h).toFixed(1)} ms over ${h.length} requests`],
    [`storm (${label}): first notification`, `${r.firstFromChange} ms after the change`, `${r.firstFromPoll} ms after the poll that saw it`, counts],
    [`storm (${label}): SIGTERM in its wake`, `exit ${r.exitCode}`, `${r.stopMs.toFixed(0)} ms`, r.exchangeDown ? 'ExchangeDown FIRED' : 'no ExchangeDown'],
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const flags = (process.env.STORM_FLAGS ?? '').split(' ').filter(Boolean);
  const r = await storm({
    coins: Number(process.env.STORM_COINS ?? 4000),
    poll: process.env.STORM_POLL ?? '5s',
    groupWait: process.env.STORM_GROUP_WAIT ?? '2s',
    groupInterval: process.env.STORM_GROUP_INTERVAL ?? '5s',
    settleMs: Number(process.env.STORM_SETTLE_MS ?? 8000),
    nodeFlags: flags,
    log: (m) => console.error(m),
  });
  for (const row of stormRows(r, 'run alone')) console.log(`| ${row.join(' | ')} |`);
  if (process.env.STORM_OUTPUT) console.log(r.output);
}
