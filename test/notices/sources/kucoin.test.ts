import { kucoinAnnouncements, kucoinStatus } from '../../../src/notices/sources/kucoin';
import { failure, recorded } from './recorded';

describe('kucoin-status: recorded answers', () => {
  it('decodes the SDK spec example exactly ("" msg is null), and close and cancelonly', () => {
    expect(kucoinStatus.decode('/api/v1/status', recorded('kucoin', 'status.json'), 0)).toEqual({ status: { state: 'normal', message: null, since: null } });
    expect(kucoinStatus.decode('', '{"code":"200000","data":{"status":"close","msg":"upgrade"}}', 0)).toEqual({ status: { state: 'maintenance', message: 'upgrade', since: null } });
    expect(kucoinStatus.decode('', '{"code":"200000","data":{"status":"cancelonly","msg":""}}', 0).status?.state).toBe('cancel_only');
  });

  it('fails on an error answer and an unknown status', () => {
    expect(failure(kucoinStatus, '', '{"code":"429000","msg":"Too Many Requests"}')).toEqual(['error_answer', 'kucoin-status']);
    expect(failure(kucoinStatus, '', '{"code":"200000","data":{"status":"halt"}}')).toEqual(['schema', 'kucoin-status']);
  });
});

describe('kucoin-announcements: recorded answers', () => {
  it('plans three types and decodes the SDK spec example exactly: annId as text, kind by the annType list', () => {
    expect(kucoinAnnouncements.plan({ open: [] }).map((r) => r.path)).toEqual([
      '/api/v3/announcements?annType=delistings&lang=en_US&currentPage=1&pageSize=20',
      '/api/v3/announcements?annType=new-listings&lang=en_US&currentPage=1&pageSize=20',
      '/api/v3/announcements?annType=maintenance-updates&lang=en_US&currentPage=1&pageSize=20',
    ]);
    expect(kucoinAnnouncements.decode('/api/v3/announcements?annType=new-listings', recorded('kucoin', 'announcements.json'), 0)).toEqual({
      announcements: [
        { id: '129045', kind: 'other', title: 'KuCoin Isolated Margin Adds the Scroll (SCR) Trading Pair', url: 'https://www.kucoin.com/announcement/kucoin-isolated-margin-adds-scr?lang=en_US', published: 1729594043000, source: 'kucoin-announcements' },
        { id: '129001', kind: 'other', title: 'DAPP-30D Fixed Promotion, Enjoy an APR of 200%!\u200b', url: 'https://www.kucoin.com/announcement/dapp-30d-fixed-promotion-enjoy?lang=en_US', published: 1729588460000, source: 'kucoin-announcements' },
        { id: '128581', kind: 'listing', title: 'NAYM (NAYM) Gets Listed on KuCoin! World Premiere!', url: 'https://www.kucoin.com/announcement/en-naym-naym-gets-listed-on-kucoin-world-premiere?lang=en_US', published: 1729497729000, source: 'kucoin-announcements' },
      ],
    });
  });

  it('lets delisting win over maintenance and maintenance over listing, spaces trimmed', () => {
    const kinds = [['new-listings', 'maintenance-updates'], ['maintenance-updates', 'delistings '], ['latest-announcements ', 'new-listings ']].map((annType) => {
      const body = { code: '200000', data: { items: [{ annId: 1, annTitle: 't', annType, cTime: 1, annUrl: '' }] } };
      return kucoinAnnouncements.decode('', JSON.stringify(body), 0).announcements?.[0]?.kind;
    });
    expect(kinds).toEqual(['maintenance', 'delisting', 'listing']);
  });
});
