import { noticeSources } from '../../../src/notices/registry';
import { binanceAnnouncements, binanceStatus } from '../../../src/notices/sources/binance';
import { failure, recorded } from './recorded';

describe('binance-status: recorded answers', () => {
  it('decodes the docs example exactly, and 1 as maintenance', () => {
    expect(binanceStatus.decode('/sapi/v1/system/status', recorded('binance', 'system-status.json'), 0)).toEqual({ status: { state: 'normal', message: 'normal', since: null } });
    expect(binanceStatus.decode('', '{"status":1,"msg":"system_maintenance"}', 0)).toEqual({ status: { state: 'maintenance', message: 'system_maintenance', since: null } });
  });

  it('fails on an error answer and a wrong shape', () => {
    expect(failure(binanceStatus, '', '{"code":-1003,"msg":"Too much request weight used"}')).toEqual(['error_answer', 'binance-status']);
    expect(failure(binanceStatus, '', '{"status":"up"}')).toEqual(['schema', 'binance-status']);
  });
});

describe('binance-announcements (unofficial): recorded answers', () => {
  it('is read only when unofficial, on binance.com unless the exchange sets a base_url', () => {
    expect(noticeSources('binance', { unofficial: false, baseUrlSet: false }).map((s) => s.name)).toEqual(['binance-status']);
    const [, ann] = noticeSources('binance', { unofficial: true, baseUrlSet: false });
    expect([ann?.name, ann?.baseUrl]).toEqual(['binance-announcements', 'https://www.binance.com']);
    expect(noticeSources('binance', { unofficial: true, baseUrlSet: true })[1]?.baseUrl).toBeUndefined();
  });

  it('decodes the recorded list exactly: code as id, catalog 48 a listing, releaseDate, the article url', () => {
    const source = binanceAnnouncements(undefined);
    expect(source.plan({ open: [] })).toEqual([{ path: '/bapi/composite/v1/public/cms/article/list/query?type=1&pageNo=1&pageSize=20', weight: 1 }]);
    const url = (code: string) => `https://www.binance.com/en/support/announcement/${code}`;
    expect(source.decode('', recorded('binance', 'cms-list.json'), 0)).toEqual({
      announcements: [
        { id: '5d8c7476197344d087b5af436bfc74ae', kind: 'listing', title: 'Binance Futures Will Launch USDⓈ-M SLP Perpetual Contract With Up to 50x Leverage', url: url('5d8c7476197344d087b5af436bfc74ae'), published: 1698731158402, source: 'binance-announcements' },
        { id: '4492f05f8b0e40f2a6dc9321aba0ba27', kind: 'listing', title: 'Binance Will List Celestia (TIA) with Seed Tag Applied', url: url('4492f05f8b0e40f2a6dc9321aba0ba27'), published: 1698671932206, source: 'binance-announcements' },
        { id: '8e7a24082b4f4ab39229b05cadbfce0a', kind: 'listing', title: 'Binance Adds ACA, GHST, VIDT and More Pairs on Cross Margin & Isolated Margin', url: url('8e7a24082b4f4ab39229b05cadbfce0a'), published: 1698638428354, source: 'binance-announcements' },
      ],
    });
    const kinds = [161, 157, 49].map((catalogId) => source.decode('', JSON.stringify({ code: '000000', data: { catalogs: [{ catalogId, articles: [{ code: 'c', title: 't', releaseDate: 1 }] }] } }), 0).announcements?.[0]?.kind);
    expect(kinds).toEqual(['delisting', 'maintenance', 'other']);
    expect(failure(source, '', '{"code":"100001","message":"busy","data":null}')).toEqual(['error_answer', 'binance-announcements']);
  });
});
