import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { main } from '../../src/cli';
import { parseConfig, redactConfig } from '../../src/config';
import type { ChatWebhookConfig } from '../../src/notify/kit/chat-webhook';
import type { Notifier } from '../../src/notify/notifier';
import { teams } from '../../src/notify/teams';
import { escapeTeams, TEAMS_BODY_LIMIT } from '../../src/notify/teams/card';
import { markupIn, TEAMS_SIG, TEAMS_WORKFLOW_ID, TeamsDouble } from '../support/doubles/teams';
import { closed, delivery, HOSTILE, HUGE, perTest, rejection, reopened, storm } from './chat-fixtures';

// An 8,000-alert storm takes about 2 s here and more on a loaded machine: no test of this file is bound by its speed.
jest.setTimeout(60_000);

const env = perTest(() => new TeamsDouble());

/** The receiver as the registry builds it from a `teams:` block. */
function notifier(over: Partial<ChatWebhookConfig> = {}): Notifier {
  return teams.create('desk-teams', { webhook_url: env.double.webhookUrl, timeout: 2000, ...over }, env.deps);
}

/** The whole body Teams receives for one card. */
function message(title: string, facts: { title: string; value: string }[], extra: object[] = []): object {
  return {
    type: 'message',
    attachments: [{
      contentType: 'application/vnd.microsoft.card.adaptive',
      contentUrl: null,
      content: {
        $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
        type: 'AdaptiveCard',
        version: '1.5',
        body: [{ type: 'TextBlock', text: title, wrap: true, weight: 'Bolder', size: 'Medium' }, { type: 'FactSet', facts }, ...extra],
        actions: [{ type: 'Action.OpenUrl', title: 'Open spotwatch', url: 'http://sw.example:9464/' }],
        msteams: { width: 'Full' },
      },
    }],
  };
}

const TRC_FACT = { title: '🔴 USDT withdrawals disabled on Tron(TRC20) (main)', value: 'main · USDT · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC — Wallet maintenance' };

describe('teams receiver', () => {
  it('posts a group as one Adaptive Card 1.5 message: a title, a fact per alert, a link', async () => {
    await notifier().send(delivery([closed()]));
    const req = env.double.requests[0];
    expect(req?.path).toBe(`/workflows/${TEAMS_WORKFLOW_ID}/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=${TEAMS_SIG}`);
    expect(req?.headers['content-type']).toBe('application/json');
    expect(env.double.replies[0]?.status).toBe(202);
    expect(req?.json).toEqual(message('🔴 [FIRING:1] WithdrawDisabled main', [TRC_FACT]));
    expect(env.double.posted[0]?.specials).toEqual([]);
  });

  it('says a resolved alert resolved, and when', async () => {
    await notifier().send(delivery([reopened(closed())]));
    expect(env.double.requests[0]?.json).toEqual(message('✅ [RESOLVED] WithdrawDisabled main', [{
      title: '✅ Resolved: USDT withdrawals disabled on Tron(TRC20) (main)',
      value: 'main · USDT · Tron(TRC20) · tron · resolved 2026-01-02 04:04:05 UTC — Wallet maintenance',
    }]));
  });

  it('makes a hostile withdrawDesc inert: markdown escaped, autolinks, <at> mentions and date functions broken', async () => {
    const hostile = `- ${HOSTILE} <at>Everyone</at> __under__ ~~struck~~ \`code\` <mailto:a@evil.example> <a@evil.example> {{DATE(2026-01-02T03:04:05Z, SHORT)}} \\*`;
    await notifier().send(delivery([closed(hostile, { coin: '# **USDT**' })]));
    const fact = (env.double.posted[0]?.card.body?.[1]?.facts ?? [])[0];
    expect(env.double.posted[0]?.specials).toEqual([]);
    expect(fact).toEqual({
      title: '🔴 \\# \\*\\*USDT\\*\\* withdrawals disabled on Tron(TRC20) (main)',
      value: 'main · # \\*\\*USDT\\*\\* · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC — '
        + '\\- <\u200bscript>alert(1)<\u200b/script> @everyone @here <\u200b@123> <\u200b@&456> <\u200b!channel> <\u200b@U123> <\u200bhttp://evil.example|click> '
        + '[click]\u200b(http://evil.example) \\*\\*bold\\*\\* & more <\u200bat>Everyone<\u200b/at> \\_\\_under\\_\\_ \\~\\~struck\\~\\~ \\`code\\` '
        + '<\u200bmailto:a@evil.example> <\u200ba@evil.example> {\u200b{DATE(2026-01-02T03:04:05Z, SHORT)}} \\\\\\*',
    });
    // Unescaped, the double would have seen all of it.
    expect(markupIn(hostile)).toEqual(['emphasis', 'strikethrough', 'code', 'link', 'autolink', 'mention', 'block', 'function']);
  });

  it('leaves ordinary text as written: parentheses, comparisons and numbers are no markup in a card', async () => {
    await notifier().send(delivery([closed('Upgrade (ETA 2h) > 30 min; fee < 5 USDT, 10.5% off; see a\\b')]));
    expect(env.double.requests[0]?.json).toEqual(message('🔴 [FIRING:1] WithdrawDisabled main', [{
      title: '🔴 USDT withdrawals disabled on Tron(TRC20) (main)',
      value: 'main · USDT · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC — Upgrade (ETA 2h) > 30 min; fee < 5 USDT, 10.5% off; see a\\b',
    }]));
  });

  it.each([
    ['Tron(TRC20)', 'Tron(TRC20)'],
    ['[FIRING:1] [x] y', '[FIRING:1] [x] y'],
    ['[click](http://evil.example)', '[click]\u200b(http://evil.example)'],
    ['![img](http://evil.example/x.png)', '![img]\u200b(http://evil.example/x.png)'],
    ['[x]: http://evil.example', '[x]\u200b: http://evil.example'],
    ['10.5 USDT', '10.5 USDT'],
    ['1. step', '1\\. step'],
    ['2) step', '2\\) step'],
    ['# title', '\\# title'],
    ['#hashtag', '#hashtag'],
    ['- item', '\\- item'],
    ['-5%', '-5%'],
    ['+ item', '\\+ item'],
    ['---', '\\---'],
    ['> quoted', '\\> quoted'],
    ['a > b', 'a > b'],
    ['<http://evil.example>', '<\u200bhttp://evil.example>'],
    ['<http://evil.example', '<\u200bhttp://evil.example'],
    ['x <5', 'x <\u200b5'],
    ['x < 5 > 3', 'x < 5 > 3'],
    ['C:\\path\\to', 'C:\\path\\to'],
    ['end\\', 'end\\\\'],
    ['\\(x\\)', '\\\\(x\\\\)'],
    ['snake_case', 'snake\\_case'],
  ])('escapes %j as %j', (text, escaped) => {
    expect(escapeTeams(text)).toBe(escaped);
    expect(markupIn(escaped)).toEqual([]);
  });

  it('cuts a 100 KB exchange message so that the alert still fits a card', async () => {
    await notifier().send(delivery([closed(HUGE)]));
    const value = env.double.posted[0]?.card.body?.[1]?.facts?.[0]?.value ?? '';
    expect(value).toBe(`main · USDT · Tron(TRC20) · tron · since 2026-01-02 03:04:05 UTC — ${'Z'.repeat(2000 - 68)}…`);
    expect(value).toHaveLength(2000);
  });

  it('splits an 8,000-alert storm into cards under the size limit, in order, losing none', async () => {
    await notifier().send(delivery(storm(8000)));
    const posted = env.double.posted;
    expect(env.double.replies.every((r) => r.status === 202)).toBe(true);
    expect(posted.length).toBeGreaterThan(1);
    expect(posted.every((p) => p.bytes <= TEAMS_BODY_LIMIT)).toBe(true);
    expect(posted.map((p) => p.card.body?.[0]?.text)).toEqual(posted.map((_, i) => `🔴 [FIRING:8000] WithdrawDisabled main (part ${i + 1} of ${posted.length})`));
    const networks = posted.flatMap((p) => (p.card.body?.[1]?.facts ?? []).map((f) => /NET\d{4}/.exec(f.value ?? '')?.[0]));
    expect(networks).toEqual(Array.from({ length: 8000 }, (_, i) => `NET${String(i).padStart(4, '0')}`));
    // Each card is filled: the next alert would not have fitted.
    expect(posted.slice(0, -1).every((p) => p.bytes > TEAMS_BODY_LIMIT - 400)).toBe(true);
  });

  it('honours a 429 Retry-After, and a retry sends only the parts not yet accepted', async () => {
    const d = delivery(storm(400));
    const n = notifier();
    env.double.forced.push({ status: 202 });
    env.double.rateLimit(7);
    const err = await rejection(n.send(d));
    expect(err).toMatchObject({ reason: 'rate_limited', retryable: true, retryAfterMs: 7000, message: 'Teams answered HTTP 429: WorkflowRequestsThrottled: The workflow is being throttled. Retry the request later.' });
    await n.send(d);
    const titles = env.double.requests.map((r) => (r.json as { attachments: { content: { body: { text?: string }[] } }[] }).attachments[0]?.content.body[0]?.text ?? '');
    const parts = titles.map((t) => Number(/\(part (\d+) of \d+\)$/.exec(t)?.[1]));
    // Part 1 accepted, part 2 refused; the retry starts again at part 2.
    expect(parts).toEqual([1, 2, ...Array.from({ length: titles.length - 2 }, (_, i) => i + 2)]);
    expect(titles.at(-1)).toMatch(new RegExp(`\\(part ${titles.length - 1} of ${titles.length - 1}\\)$`));
  });

  it('classifies refusals, and never shows the signature: not from an echoing answer, not from a redirect', async () => {
    const url = env.double.webhookUrl.replace(TEAMS_SIG, `${TEAMS_SIG.slice(0, -1)}X`);
    const wrongSig = await rejection(notifier({ webhook_url: url }).send(delivery([closed()])));
    expect(wrongSig).toMatchObject({ reason: 'client_error', retryable: false, retryAfterMs: undefined });
    expect(wrongSig.message).toBe('Teams answered HTTP 401: DirectApiInvalidAuthorizationSignature: The provided authorization signature \'<redacted>\' is invalid.');
    env.double.forced.push({ status: 400, body: { error: { code: 'InvalidTemplate', message: `bad card for ${env.double.webhookUrl}` } } });
    expect((await rejection(notifier().send(delivery([closed()])))).message).toBe('Teams answered HTTP 400: InvalidTemplate: bad card for <redacted>');
    env.double.forced.push({ status: 502, body: 'Bad Gateway' });
    expect(await rejection(notifier().send(delivery([closed()])))).toMatchObject({ reason: 'server_error', retryable: true, message: 'Teams answered HTTP 502: Bad Gateway' });
    env.double.forced.push({ status: 308, headers: { location: `https://127.0.0.1:1/workflows/${TEAMS_WORKFLOW_ID}/triggers/manual/paths/invoke?sig=${TEAMS_SIG}` } });
    const moved = await rejection(notifier().send(delivery([closed()])));
    expect(moved.message).toBe('Teams redirected (HTTP 308) from http:// to https://, which is not followed: set the receiver\'s url to https://127.0.0.1:1/<redacted>');
  });

  it('renders the templates over the data model, upstream values escaped', async () => {
    await notifier({ text_template: '{{mark}} {{count}} on {{groupLabels.exchange}}', alert_template: '{{where}}: {{message}} {{generatorURL}}' }).send(delivery([closed('**now**')]));
    const card = env.double.posted[0]?.card;
    expect(card?.body?.[0]?.text).toBe('🔴 1 on main');
    expect(card?.body?.[1]?.facts?.[0]?.value).toBe('main · USDT · Tron(TRC20) · tron: \\*\\*now\\*\\* http://sw.example:9464/#72e6ada129d8b016');
  });

  it('keeps the URL out of config dumps', () => {
    const text = 'exchanges:\n  - name: main\nnotify:\n  receivers:\n    - name: desk-teams\n      teams: { webhook_url: "${TEAMS_WORKFLOW_URL}" }\n';
    const result = parseConfig(text, 'c.yaml', { TEAMS_WORKFLOW_URL: `https://prod-01.westeurope.logic.azure.com:443/workflows/${TEAMS_WORKFLOW_ID}/triggers/manual/paths/invoke?sig=${TEAMS_SIG}` }, '/etc/spotwatch');
    if (!result.ok) throw new Error(result.problems.join('\n'));
    expect(result.config.notify.receivers[0]).toMatchObject({ kind: 'teams' });
    const dump = JSON.stringify(redactConfig(result.config));
    expect(dump).not.toContain(TEAMS_SIG);
    expect(dump).not.toContain(TEAMS_WORKFLOW_ID);
  });
});

class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.text += chunk.toString();
    done();
  }
}

describe('spotwatch test-notify with teams', () => {
  it('sends a marked test card, and prints Teams\' refusal without the signature', async () => {
    const double = await new TeamsDouble().start();
    const dir = mkdtempSync(join(tmpdir(), 'spotwatch-teams-cli-'));
    try {
      writeFileSync(join(dir, 'c.yaml'), `exchanges:\n  - name: main\nlog: { level: error }\nnotify:\n  receivers:\n    - name: desk-teams\n      teams: { webhook_url: "${double.webhookUrl}" }\n`);
      const run = async (): Promise<{ code: number; out: string; err: string }> => {
        const stdout = new Sink();
        const stderr = new Sink();
        const code = await main(['test-notify', '--receiver', 'desk-teams', '--config', join(dir, 'c.yaml')], { stdout, stderr, env: { SPOTWATCH_LOG_LEVEL: 'silent' } });
        return { code, out: stdout.text, err: stderr.text };
      };
      expect(await run()).toEqual({ code: 0, out: 'test notification delivered to desk-teams (teams)\n', err: '' });
      expect(double.posted[0]?.card.body?.[1]?.facts?.[0]?.title).toBe('🔵 spotwatch test notification: ignore me');
      double.forced.push({ status: 404, body: { error: { code: 'WorkflowNotFound', message: `no flow at ${double.webhookUrl}` } } });
      expect(await run()).toEqual({ code: 1, out: '', err: 'test notification to desk-teams (teams) failed [client_error]: Teams answered HTTP 404: WorkflowNotFound: no flow at <redacted>\n' });
      double.rateLimit(3);
      expect((await run()).err).toBe('test notification to desk-teams (teams) failed [rate_limited, would be retried]: Teams answered HTTP 429: WorkflowRequestsThrottled: The workflow is being throttled. Retry the request later.\n');
    } finally {
      await double.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
