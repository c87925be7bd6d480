// The `npm start` banner's "switch it" command (issue 45, item 15): the request it makes, as curl makes it (curl's -d
// sends application/x-www-form-urlencoded unless a Content-Type is given), is accepted by the emulator's admin API.
// The printed command itself runs too where curl is installed.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import * as path from 'node:path';
import { startEmulator, type Emulator } from '../../../src/emulator';

const root = path.resolve(__dirname, '..', '..', '..');

interface CurlShape {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The request a single-line curl command makes: -X, -H (repeatable), -d (POST, form content type unless -H names one). */
function curlShape(command: string): CurlShape {
  const words = [...command.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
  assert.equal(words.shift(), 'curl');
  const shape: CurlShape = { method: 'GET', url: '', headers: {} };
  while (words.length) {
    const word = words.shift()!;
    if (word === '-X') shape.method = words.shift()!;
    else if (word === '-H') {
      const [name, ...value] = words.shift()!.split(':');
      shape.headers[name.trim().toLowerCase()] = value.join(':').trim();
    } else if (word === '-d') {
      shape.body = words.shift()!;
      if (shape.method === 'GET') shape.method = 'POST';
    } else shape.url = word;
  }
  if (shape.body !== undefined) shape.headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return shape;
}

const switchCommand = async (emu: Emulator): Promise<string> => {
  const start = (await import(path.join(root, 'scripts', 'lib', 'startOptions.mjs'))) as {
    dialectBanner(url: string, token: string, dialect?: string): string[];
  };
  const line = start.dialectBanner(emu.url, emu.adminToken).find((l) => l.includes('switch it'));
  assert.ok(line, 'the banner has a "switch it" line');
  return line.replace(/^\s*switch it\s+/, '');
};

describe("npm start's banner: the dialect switch command works as printed", () => {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await startEmulator({});
  });
  afterEach(() => emu.close());

  it('its request shape (curl sends a form content type unless told) switches the dialect', async () => {
    const shape = curlShape(await switchCommand(emu));
    const res = await fetch(shape.url, { method: shape.method, headers: shape.headers, body: shape.body });
    assert.equal(res.status, 200, await res.clone().text());
    assert.deepEqual(await res.json(), { ok: true, dialect: 'one-api' });
  });

  it('the printed command, run with curl where it is installed', async function () {
    const command = await switchCommand(emu);
    let out: string;
    try {
      // Asynchronously: the emulator answers from this process.
      out = (await promisify(execFile)('sh', ['-c', `${command} -s`], { encoding: 'utf8', timeout: 10_000 })).stdout;
    } catch (error) {
      if ((error as { code?: number }).code === 127) return this.skip(); // no curl here
      throw error;
    }
    assert.deepEqual(JSON.parse(out), { ok: true, dialect: 'one-api' });
  });
});
