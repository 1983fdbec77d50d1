import { createServer } from 'node:http';
import { spotV3 } from '../../src/exchange/dialects/spot-v3';
import { closeServer, listenLoopback } from '../support/loopback';
import { readSource } from '../../src/notices/fetch';
import { NoticeError } from '../../src/notices/source';
import { okxAnnouncements, okxStatus } from '../../src/notices/sources/okx';
import { LoopbackExchange, loopbackClient, type Answer, type Asked } from '../exchange/dialects/loopback-exchange';
import { recorded } from './sources/recorded';

/** OKX on loopback: the recorded answers, or what `fault` says for every request. */
class NoticeExchange extends LoopbackExchange {
  fault: Answer | undefined;

  protected respond({ path }: Asked): Answer {
    if (this.fault !== undefined) return this.fault;
    return { body: recorded('okx', path.includes('announcements') ? 'announcements.json' : 'status.json') };
  }
}

/** The client of any dialect sends a notice request; spot-v3 needs no credentials. */
describe('notice sources through the real client', () => {
  let exchange: NoticeExchange;
  beforeEach(async () => {
    exchange = await new NoticeExchange().start();
  });
  afterEach(async () => {
    await exchange.stop();
  });

  it('reads under base_url with the source headers, spending its weights', async () => {
    const client = loopbackClient(spotV3, `${exchange.url}/proxy`);
    const read = await readSource(client, okxAnnouncements, { left: [] }, () => 0);
    expect(read.announcements?.length).toBe(6);
    expect(exchange.asked.map((a) => [a.path, a.headers['accept-language']])).toEqual([
      ['/proxy/api/v5/support/announcements?annType=announcements-delistings&page=1', 'en-US'],
      ['/proxy/api/v5/support/announcements?annType=announcements-new-listings&page=1', 'en-US'],
      ['/proxy/api/v5/support/announcements?annType=announcements-deposit-withdrawal-suspension-resumption&page=1', 'en-US'],
    ]);
    expect(client.usedWeight()).toBe(3);
    await client.close();
  });

  it.each([
    ['an error answer', { body: '{"code":"50001","msg":"busy","data":[]}' }, 'error_answer'],
    ['HTTP 503', { status: 503, body: '' }, 'http'],
    ['HTTP 429', { status: 429, body: '{"code":"50011","msg":"Too Many Requests"}', headers: { 'retry-after': '1' } }, 'rate_limited'],
    ['a wrong shape', { body: '{"code":"0","data":"none"}' }, 'schema'],
    ['a body over its cap', { body: 'x'.repeat(5000) }, 'body_too_large'],
  ] as const)('turns %s into a NoticeError of its kind, never a partial read', async (_what, fault, kind) => {
    exchange.fault = fault;
    const client = loopbackClient(spotV3, exchange.url, { maxBodyBytes: 4096 });
    const err = await readSource(client, okxStatus, { left: [] }, () => 0).then(() => undefined, (e: unknown) => e);
    expect(err).toBeInstanceOf(NoticeError);
    expect([(err as NoticeError).kind, (err as NoticeError).source]).toEqual([kind, 'okx-status']);
    await client.close();
  });

  it('turns an answer that never comes into a NoticeError of kind timeout', async () => {
    // Headers sent, the body never finished.
    const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).write('{'));
    const url = await listenLoopback(server);
    const client = loopbackClient(spotV3, url, { timeoutMs: 200 });
    const err = await readSource(client, okxStatus, { left: [] }, () => 0).then(() => undefined, (e: unknown) => e);
    expect([(err as NoticeError).kind, (err as NoticeError).source]).toEqual(['timeout', 'okx-status']);
    await client.close();
    await closeServer(server);
  });
});
