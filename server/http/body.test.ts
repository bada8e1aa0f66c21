import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { createTestApp, expectData, expectError, expectValidationError, type TestApp } from '../test-helpers/index.js';
import { Experience, Organization } from '../../shared/index.js';
import { BODY_LIMIT_BYTES } from './body.js';

const validExperience = { name: 'Harbour walk', description: 'Along the quay', duration: 60, price: 1500, maxParticipants: 10 };

/** A raw HTTP/1.1 request, so that framing (chunked, content-length) is exactly what the test says. */
function rawRequest(url: string, options: { method: string; path: string; headers: Record<string, string>; chunks: Buffer[] }) {
  return new Promise<{ status: number; body: string; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const u = new URL(url);
    const req = httpRequest({ host: u.hostname, port: u.port, method: options.method, path: options.path, headers: options.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('error', reject);
    for (const chunk of options.chunks) req.write(chunk);
    req.end();
  });
}

describe('request bodies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('accepts application/json with parameters such as charset', async () => {
    const res = await t.request('POST', '/v1/experiences', {
      body: JSON.stringify(validExperience),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    expectData(res, Experience, 201);
  });

  it('accepts the media type in any letter case', async () => {
    const res = await t.request('POST', '/v1/experiences', {
      body: JSON.stringify(validExperience),
      headers: { 'content-type': 'Application/JSON' },
    });
    expectData(res, Experience, 201);
  });

  it('refuses a non-empty body that is not JSON by content type with 415', async () => {
    const res = await t.request('POST', '/v1/experiences', {
      body: JSON.stringify(validExperience),
      headers: { 'content-type': 'text/plain' },
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('refuses a non-empty body without any content type with 415', async () => {
    const res = await t.request('POST', '/v1/experiences', { body: JSON.stringify(validExperience) });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it.each([
    'application/json; charset=utf-16',
    'application/json; charset=UTF-16LE',
    'application/json;charset="utf-16"',
    'application/json; charset=iso-8859-1',
    'application/json; charset=us-ascii',
    'application/json; charset=',
    'application/json; foo; charset=utf-16',
    'application/json; a="x;y"; charset="Windows-1252"',
    'application/json; charset=utf-8; charset=utf-16',
  ])('refuses a body declared in another charset than UTF-8 (%s) with 415', async (type) => {
    const res = await t.request('POST', '/v1/experiences', { body: JSON.stringify(validExperience), headers: { 'content-type': type } });
    const error = expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expect(error.message).toMatch(/Only UTF-8/);
  });

  it.each(['application/json; charset=UTF-8', 'application/json;charset="utf-8"', 'application/json; charset=utf8', 'application/json; v=1'])(
    'accepts UTF-8 however it is spelled, and other parameters (%s)',
    async (type) => {
      const res = await t.request('POST', '/v1/experiences', { body: JSON.stringify(validExperience), headers: { 'content-type': type } });
      expectData(res, Experience, 201);
    },
  );

  it('refuses look-alike media types such as application/jsonp', async () => {
    const res = await t.request('PATCH', '/v1/organization', {
      body: '{"name":"X"}',
      headers: { 'content-type': 'application/jsonp' },
    });
    expectError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('reads an empty body as {} whatever its content type says', async () => {
    // {} is no valid experience: the answer is a validation error naming the fields, not 415 or INVALID_JSON.
    for (const type of ['text/plain', 'application/xml', 'application/json']) {
      const res = await t.request('POST', '/v1/experiences', { body: '', headers: { 'content-type': type } });
      expectValidationError(res, 'name');
    }
    const none = await t.request('POST', '/v1/experiences');
    expectValidationError(none, 'name');
  });

  it('answers malformed JSON with 400 INVALID_JSON', async () => {
    for (const body of ['{"name": ', 'not json', "{'a': 1}", '{"a":1}}']) {
      const res = await t.request('PATCH', '/v1/organization', { body, headers: { 'content-type': 'application/json' } });
      expectError(res, 400, 'INVALID_JSON');
    }
  });

  it('answers JSON that is not an object with a validation error', async () => {
    for (const body of ['[]', '"text"', '42', 'null']) {
      const res = await t.request('PATCH', '/v1/organization', { body, headers: { 'content-type': 'application/json' } });
      expectError(res, 400, 'VALIDATION_ERROR');
    }
  });

  it('answers a body over 64 KiB with 413', async () => {
    const res = await t.request('PATCH', '/v1/organization', {
      body: JSON.stringify({ name: 'x'.repeat(BODY_LIMIT_BYTES) }),
      headers: { 'content-type': 'application/json' },
    });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('accepts a body of exactly 64 KiB (then judges its content)', async () => {
    const prefix = '{"name":"';
    const suffix = '"}';
    const body = prefix + 'x'.repeat(BODY_LIMIT_BYTES - prefix.length - suffix.length) + suffix;
    expect(Buffer.byteLength(body)).toBe(BODY_LIMIT_BYTES);
    const res = await t.request('PATCH', '/v1/organization', { body, headers: { 'content-type': 'application/json' } });
    expectValidationError(res, 'name'); // too long a name, but not too large a body
  });

  it('counts bytes, not characters, against the limit', async () => {
    const body = JSON.stringify({ name: 'é'.repeat(BODY_LIMIT_BYTES / 2) }); // 2 bytes each in UTF-8
    expect(body.length).toBeLessThan(BODY_LIMIT_BYTES * 1.01);
    const res = await t.request('PATCH', '/v1/organization', { body, headers: { 'content-type': 'application/json' } });
    expectError(res, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('reads UTF-8 bodies faithfully', async () => {
    const res = await t.request('PATCH', '/v1/organization', { body: { name: 'Passeios à Beira-Tejo ☀' } });
    expect(expectData(res, Organization).name).toBe('Passeios à Beira-Tejo ☀');
  });

  it('refuses a body on a route that takes none', async () => {
    const exp = expectData(await t.request('POST', '/v1/experiences', { body: validExperience }), Experience, 201);
    const res = await t.request('DELETE', `/v1/experiences/${exp.id}`, { body: { force: true } });
    expectError(res, 400, 'VALIDATION_ERROR');
    // …while an empty JSON object is the same as no body.
    const ok = await t.request('DELETE', `/v1/experiences/${exp.id}`, { body: {} });
    expect(ok.status).toBe(200);
  });

  describe('over a real socket', () => {
    let url: string;
    beforeAll(async () => {
      url = (await t.listen()).url;
    });

    it('answers a chunked body over 64 KiB without content-length with 413', async () => {
      const chunk = Buffer.alloc(16 * 1024, 'a');
      const res = await rawRequest(url, {
        method: 'POST',
        path: '/v1/experiences',
        headers: { authorization: `Bearer ${t.secretKey}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        chunks: [Buffer.from('{"name":"'), ...Array.from({ length: 6 }, () => chunk), Buffer.from('"}')],
      });
      expect(res.status).toBe(413);
      expectError({ status: res.status, body: JSON.parse(res.body) }, 413, 'PAYLOAD_TOO_LARGE');
      expect(res.headers['x-request-id']).toBeTruthy();
    });

    it('answers a declared content-length over 64 KiB with 413', async () => {
      const body = Buffer.from(JSON.stringify({ name: 'x'.repeat(BODY_LIMIT_BYTES + 10) }));
      const res = await rawRequest(url, {
        method: 'PATCH',
        path: '/v1/organization',
        headers: { authorization: `Bearer ${t.secretKey}`, 'content-type': 'application/json', 'content-length': String(body.length) },
        chunks: [body],
      });
      expectError({ status: res.status, body: JSON.parse(res.body) }, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('takes a client that sends half a body and hangs up for what it is: no server error, no stack', async () => {
      const before = t.logs.length;
      const port = Number(new URL(url).port);
      await new Promise<void>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1', () => {
          socket.write(
            'POST /v1/experiences HTTP/1.1\r\nHost: localhost\r\n' +
              `Authorization: Bearer ${t.secretKey}\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n` +
              '{"name":"Harbour',
            () => setTimeout(() => socket.destroy(), 50),
          );
        });
        socket.on('close', () => resolve());
        socket.on('error', reject);
      });
      const entries = async () => {
        for (let i = 0; i < 100; i++) {
          const now = t.logEntries().slice(before);
          if (now.some((e) => e.msg === 'request')) return now;
          await new Promise((r) => setTimeout(r, 20));
        }
        throw new Error(`no request line logged: ${t.logs.slice(before).join('\n')}`);
      };
      const logged = await entries();
      expect(logged.filter((e) => e.level === 'error' || e.level === 'warn')).toEqual([]);
      expect(logged.filter((e) => 'stack' in e)).toEqual([]);
      expect(logged.find((e) => e.msg === 'request')).toMatchObject({ method: 'POST', path: '/v1/experiences', status: 400 });
      expect(logged.filter((e) => e.msg === 'client aborted the request')).toHaveLength(1);
      // The server is fine and the connection pool too: the next request is served.
      const ok = await fetch(`${url}/healthz`);
      expect(ok.status).toBe(200);
    });

    it('accepts a small chunked JSON body', async () => {
      const res = await rawRequest(url, {
        method: 'POST',
        path: '/v1/experiences',
        headers: { authorization: `Bearer ${t.secretKey}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
        chunks: [Buffer.from(JSON.stringify(validExperience).slice(0, 10)), Buffer.from(JSON.stringify(validExperience).slice(10))],
      });
      expect(res.status).toBe(201);
      expectData({ status: res.status, body: JSON.parse(res.body) }, Experience, 201);
    });
  });
});
