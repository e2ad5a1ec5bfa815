import { randomUUID } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REQUEST_LOG_FLUSH_MS, RequestLog } from '../../server/request-log/log.js';
import {
  type NewRequestLogRow,
  type StoredRequestLogRow,
  seqOfRequestLogId,
  withoutSeq,
} from '../../server/request-log/rows.js';

const row = (n: number): NewRequestLogRow => ({
  created_at: new Date(1_700_000_000_000 + n).toISOString(),
  env: n % 3 === 0 ? 'production' : 'test',
  merchant_id: n % 2 === 0 ? 'even' : null,
  api_key_id: null,
  api_key: null,
  method: 'GET',
  route: '/v1/customers',
  path: `/v1/customers?n=${n}`,
  status: n % 5 === 0 ? 404 : 200,
  duration_ms: 1,
  request_body: null,
  // Text that JSON must escape (quotes, a newline, non-ASCII), as response bodies have.
  response_body: `{"n":${n},"note":"line\\nbreak é"}`,
});

const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-sandbox-request-log-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
const segments = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.log'));
const paths = (log: RequestLog, limit = 100) => log.list({ limit }).map((e) => e.path);
const newest = (n: number, count: number) =>
  Array.from({ length: count }, (_, i) => `/v1/customers?n=${n - 1 - i}`);

describe('request log', () => {
  it('keeps exactly the newest `limit` entries after every append, whatever the batch sizes, and deletes spent segment files', () => {
    const dir = tempDir();
    const log = new RequestLog({ dir, limit: 8 });
    let n = 0;
    for (const batch of [1, 3, 2, 7, 1, 12, 4, 30]) {
      for (let i = 0; i < batch; i++) log.append(row(n++));
      expect(log.count()).toBe(Math.min(n, 8));
      expect(paths(log)).toEqual(newest(n, Math.min(n, 8)));
    }
    log.close();
    // 8 entries in segments of 2: the live window spans at most 5 files, never the 30 written.
    expect(segments(dir).length).toBeLessThanOrEqual(5);
    const lines = segments(dir).flatMap((f) =>
      readFileSync(join(dir, f), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('{"seq":')),
    );
    expect(lines.length).toBeLessThanOrEqual(10);
  });

  it('writes on its own within a few ms, a burst in one write', async () => {
    const log = new RequestLog();
    const batches: number[] = [];
    log.onWritten((rows) => batches.push(rows.length));
    log.append(row(1));
    await new Promise((resolve) => setTimeout(resolve, REQUEST_LOG_FLUSH_MS * 2 + 5));
    expect(batches).toEqual([1]);
    for (let i = 2; i <= 20; i++) log.append(row(i));
    await new Promise((resolve) => setTimeout(resolve, REQUEST_LOG_FLUSH_MS * 2 + 5));
    expect(batches).toEqual([1, 19]);
    expect(log.count()).toBe(20);
  });

  it('on disk, announces the rows it wrote as they were appended (held as encoded bytes until then)', () => {
    const log = new RequestLog({ dir: tempDir(), limit: 3 });
    const announced: unknown[] = [];
    log.onWritten((rows) => announced.push(...rows));
    const appended = [1, 2, 3, 4, 5].map((i) =>
      log.append({ ...row(i), request_body: `{"note":"€ ${i} \\"q\\""}`, response_body: '{"ok":true}' }),
    );
    log.flush();
    // The two oldest left the window before the write: only the newest three are written.
    expect(announced).toEqual(appended.slice(2));
    expect(log.get(appended[4]!.id)).toEqual(withoutSeq(appended[4]!));
    log.close();
  });

  it('filters by merchant, env and status, and pages with starting_after', () => {
    const log = new RequestLog({ dir: tempDir() });
    const ids = Array.from({ length: 30 }, (_, i) => log.append(row(i)).id);
    const even = log.list({ limit: 100, merchantId: 'even' });
    expect(even.map((e) => e.path)).toEqual(newest(30, 30).filter((_, i) => (29 - i) % 2 === 0));
    const prod404 = log.list({ limit: 100, env: 'production', status: { min: 400, max: 499 } });
    expect(prod404.map((e) => e.path)).toEqual(['/v1/customers?n=15', '/v1/customers?n=0']);
    const page = log.list({ limit: 3, startingAfter: ids[10] });
    expect(page.map((e) => e.id)).toEqual([ids[9], ids[8], ids[7]]);
    expect(() => log.list({ limit: 3, startingAfter: randomUUID() })).toThrow(/starting_after/);
    // Bodies come back byte for byte.
    expect(log.get(ids[4]!)?.response_body).toBe(row(4).response_body);
  });

  it('gives ids that carry the seq; a forged id is not found; an imported log keeps its ids, old random ones too', () => {
    const log = new RequestLog({ dir: tempDir() });
    const legacy: StoredRequestLogRow = { seq: 7, id: randomUUID(), ...row(0), path: '/old' };
    log.replace([legacy]);
    const written = [log.append(row(1)).id, log.append(row(2)).id];
    expect(written.map(seqOfRequestLogId)).toEqual([8, 9]);
    for (const id of written) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(log.get(id)?.id).toBe(id);
    }
    expect(log.get(legacy.id)?.path).toBe('/old');
    const forged = `${randomUUID().slice(0, 24)}${written[0]!.slice(24)}`;
    expect(log.get(forged)).toBeUndefined();
    expect(log.list({ limit: 5, startingAfter: written[1] }).map((e) => e.id)).toEqual([
      written[0],
      legacy.id,
    ]);
    expect(log.dump().map((r) => r.seq)).toEqual([7, 8, 9]);
  });

  it('survives a restart: entries, filters and the next id continue; a torn last line (a kill mid-write) is cut off', () => {
    const dir = tempDir();
    const first = new RequestLog({ dir, limit: 50 });
    const ids = Array.from({ length: 20 }, (_, i) => first.append(row(i)).id);
    first.flush();
    // A kill -9 leaves what was written (no close); then half a line arrives at the end.
    const last = segments(dir).sort().at(-1)!;
    appendFileSync(join(dir, last), '{"seq":21,"id":"torn');
    const second = new RequestLog({ dir, limit: 50 });
    expect(second.count()).toBe(20);
    expect(second.get(ids[3]!)?.path).toBe('/v1/customers?n=3');
    const next = second.append(row(20));
    expect(seqOfRequestLogId(next.id)).toBe(21);
    second.close();
    const third = new RequestLog({ dir, limit: 50 });
    expect(paths(third, 3)).toEqual(['/v1/customers?n=20', '/v1/customers?n=19', '/v1/customers?n=18']);
    expect(third.list({ limit: 100, merchantId: 'even' })).toHaveLength(11);
    third.close();
  });

  it('a restart with a smaller limit keeps only the newest and deletes the spent files', () => {
    const dir = tempDir();
    const big = new RequestLog({ dir, limit: 40 });
    for (let i = 0; i < 40; i++) big.append(row(i));
    big.close();
    const small = new RequestLog({ dir, limit: 4 });
    expect(paths(small)).toEqual(newest(40, 4));
    small.close();
    expect(segments(dir).length).toBeLessThanOrEqual(2);
  });

  it('clear empties it (ids keep counting); replace makes it exactly the given rows, without announcing them', () => {
    const dir = tempDir();
    const log = new RequestLog({ dir });
    const announced: string[] = [];
    log.onWritten((rows) => announced.push(...rows.map((r) => r.path)));
    for (let i = 0; i < 5; i++) log.append(row(i));
    log.clear();
    expect(log.count()).toBe(0);
    expect(segments(dir)).toEqual([]);
    expect(seqOfRequestLogId(log.append(row(5)).id)).toBe(6);
    log.replace([{ seq: 3, id: randomUUID(), ...row(9) }]);
    expect(paths(log)).toEqual(['/v1/customers?n=9']);
    expect(announced).toEqual([]);
  });

  it('writes the repeating fields in ASCII (a masked key’s …) and reads them back exactly', () => {
    const dir = tempDir();
    const log = new RequestLog({ dir });
    const masked = 'svcb_…a1b2';
    log.append({ ...row(1), api_key: masked, route: '/v1/é/:id', merchant_id: 'mérchant' });
    log.close();
    const text = readFileSync(join(dir, segments(dir)[0]!), 'latin1');
    const header = text.slice(0, text.indexOf('\n'));
    // One byte a character: nothing outside ASCII in the header line.
    expect(/^[\x20-\x7e]*$/.test(header)).toBe(true);
    expect(header).toContain('"api_key":"svcb_\\u2026a1b2"');
    const again = new RequestLog({ dir });
    expect(again.list({ limit: 1 })[0]).toMatchObject({
      api_key: masked,
      route: '/v1/é/:id',
      merchant_id: 'mérchant',
    });
    again.close();
  });

  it.skipIf(!existsSync('/dev/full'))(
    'a failed write (a real ENOSPC from /dev/full) drops those entries, leaves the files whole, and the log goes on in a new file',
    () => {
      const dir = tempDir();
      const errors: { code: string; dropped: number }[] = [];
      const log = new RequestLog({
        dir,
        limit: 8,
        onError: (error, dropped) => errors.push({ code: (error as { code: string }).code, dropped }),
      });
      const announced: string[] = [];
      log.onWritten((rows) => announced.push(...rows.map((r) => r.path)));
      // Segments of 2 entries (limit 8): the second segment's file is the kernel's full device.
      log.append(row(0));
      log.append(row(1));
      log.flush();
      symlinkSync('/dev/full', join(dir, '00000002.log'));
      log.append(row(2));
      log.append(row(3));
      log.flush();
      expect(errors).toEqual([{ code: 'ENOSPC', dropped: 2 }]);
      expect(paths(log)).toEqual(newest(2, 2));
      expect(announced).toEqual(newest(2, 2).reverse());
      // Room again: the next entries land in a new file, and a restart reads back exactly these.
      log.append(row(4));
      log.flush();
      expect(paths(log)).toEqual(['/v1/customers?n=4', ...newest(2, 2)]);
      log.close();
      const again = new RequestLog({ dir, limit: 8 });
      expect(paths(again)).toEqual(['/v1/customers?n=4', ...newest(2, 2)]);
      again.close();
    },
  );

  it('reads back bodies of any size and script exactly across a restart (lengths counted as they are written)', () => {
    const dir = tempDir();
    const log = new RequestLog({ dir });
    const bodies = [
      '',
      '{"emoji":"💸 paid","cjk":"支払い","combining":"é"}',
      JSON.stringify({ big: 'x'.repeat(300_000), tail: 'ü' }),
      '{"n":1}',
    ];
    for (const [i, body] of bodies.entries())
      log.append({ ...row(i), request_body: i === 3 ? null : body, response_body: body, path: `/v1/é/${i}` });
    log.close();
    const again = new RequestLog({ dir });
    const rows = again.list({ limit: 10 }).reverse();
    expect(rows.map((r) => r.response_body)).toEqual(bodies);
    expect(rows.map((r) => r.request_body)).toEqual([...bodies.slice(0, 3), null]);
    expect(rows.map((r) => r.path)).toEqual(bodies.map((_, i) => `/v1/é/${i}`));
    // Each record's header is a JSON line whose q/r are the body byte lengths.
    const text = readFileSync(join(dir, segments(dir)[0]!), 'utf8');
    const header = JSON.parse(text.slice(0, text.indexOf('\n'))) as { q: number; r: number };
    expect(header).toMatchObject({ q: 0, r: 0 });
    again.close();
  });

  it.skipIf(!existsSync('/dev/full'))(
    'reports a run of failed writes once, and a new failure after a write has succeeded again',
    () => {
      const dir = tempDir();
      const errors: number[] = [];
      const log = new RequestLog({ dir, limit: 8, onError: (_error, dropped) => errors.push(dropped) });
      // Segments of 2 entries: files 1 and 2 are the full device, 3 takes writes, 4 is full again.
      for (const name of ['00000001.log', '00000002.log', '00000004.log'])
        symlinkSync('/dev/full', join(dir, name));
      log.append(row(0));
      log.flush();
      log.append(row(1));
      log.flush();
      expect(errors).toEqual([1]);
      log.append(row(2));
      log.append(row(3));
      log.flush();
      expect(paths(log)).toEqual(newest(4, 2));
      log.append(row(4));
      log.flush();
      expect(errors).toEqual([1, 1]);
      expect(paths(log)).toEqual(newest(4, 2));
      log.close();
    },
  );

  it('hands the rows it writes to a listener only while the listener is subscribed', () => {
    const log = new RequestLog({ dir: tempDir() });
    const seen: string[] = [];
    log.append(row(0));
    log.flush();
    const unsubscribe = log.onWritten((rows) => seen.push(...rows.map((r) => r.path)));
    log.append(row(1));
    log.append(row(2));
    log.flush();
    unsubscribe();
    log.append(row(3));
    log.flush();
    expect(seen).toEqual(['/v1/customers?n=1', '/v1/customers?n=2']);
    expect(paths(log)).toEqual(newest(4, 4));
    log.close();
  });
});
