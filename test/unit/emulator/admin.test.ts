// The admin API ("console") through the test client in test/support/emulatorAdmin.ts.

import { strict as assert } from 'node:assert';
import { EmulatorAdmin } from '../../support/emulatorAdmin';
import { DEMO, chatBody, imageHeaders, messagesHeaders, post, useEmulator } from './helpers';

describe('emulator: admin API', () => {
  const emu = useEmulator();
  const admin = (): EmulatorAdmin => new EmulatorAdmin(emu().url, emu().adminToken);

  it('refuses requests without the admin token (401)', async () => {
    assert.equal((await fetch(`${emu().url}/admin/requests`)).status, 401);
    assert.equal(
      (await fetch(`${emu().url}/admin/requests`, { headers: { authorization: `Bearer ${DEMO}` } })).status,
      401,
    );
    await assert.rejects(new EmulatorAdmin(emu().url, 'wrong').requests(), /HTTP 401/);
  });

  it('request log and counters: route, key name, model, status, billable, stream; admin calls not logged', async () => {
    await post(emu(), '/v1/messages', chatBody('x', { stream: true }), messagesHeaders());
    await fetch(`${emu().url}/v1/models`, { headers: { 'x-api-key': DEMO } });
    const log = await admin().requests();
    assert.equal(log.length, 2);
    assert.deepEqual(
      {
        route: log[0].route,
        keyName: log[0].keyName,
        model: log[0].model,
        status: log[0].status,
        billable: log[0].billable,
        stream: log[0].stream,
        method: log[0].method,
        path: log[0].path,
      },
      {
        route: 'messages',
        keyName: 'demo',
        model: 'claude-demo-sonnet',
        status: 200,
        billable: true,
        stream: true,
        method: 'POST',
        path: '/v1/messages',
      },
    );
    assert.equal(log[1].billable, false);
    assert.ok(log.every((e) => typeof e.durationMs === 'number' && !Number.isNaN(Date.parse(e.time))));
    assert.deepEqual(await admin().counters(), { billable: { messages: 1 }, totalBillable: 1 });
  });

  it('creates keys in a group, revokes them, sets balances', async () => {
    const created = await admin().createKey({ group: 'chat-only', name: 'ci', balance: 5 });
    assert.equal(created.name, 'ci');
    assert.ok(!JSON.stringify(emu().requests()).includes(created.key), 'the log never holds a key');
    const models = (await (
      await fetch(`${emu().url}/v1/models`, { headers: { authorization: `Bearer ${created.key}` } })
    ).json()) as { data: Array<{ id: string }> };
    assert.deepEqual(
      models.data.map((m) => m.id),
      ['claude-demo-sonnet', 'claude-demo-haiku'],
    );
    await admin().setBalance(created.key, 0);
    assert.equal((await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders(created.key))).status, 403);
    await admin().revokeKey(created.key);
    assert.equal((await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders(created.key))).status, 401);
    const fixed = await admin().createKey({ group: 'default', key: 'mg-fixed-key' });
    assert.equal(fixed.key, 'mg-fixed-key');
    await assert.rejects(admin().createKey({ group: 'nope' }), /HTTP 400/);
    await assert.rejects(admin().revokeKey('mg-unknown'), /HTTP 404/);
  });

  it('sets and clears faults per key', async () => {
    await admin().setFaults(DEMO, { status: 500, count: 1 });
    assert.equal(
      (
        await post(
          emu(),
          '/v1/images/generations',
          { model: 'gpt-image-demo', prompt: 'p', size: '16x16' },
          imageHeaders(),
        )
      ).status,
      500,
    );
    assert.equal(
      (
        await post(
          emu(),
          '/v1/images/generations',
          { model: 'gpt-image-demo', prompt: 'p', size: '16x16' },
          imageHeaders(),
        )
      ).status,
      200,
    );
    await admin().setFaults(DEMO, { htmlError: true });
    assert.equal((await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders())).status, 502);
    await admin().setFaults(DEMO, null);
    assert.equal((await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders())).status, 200);
  });

  it('reset puts log, counters, faults, tasks and keys back to the config', async () => {
    const k = await admin().createKey({ group: 'default' });
    await admin().setFaults(DEMO, { status: 503 });
    await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders());
    await admin().revokeKey(DEMO);
    await admin().reset();
    assert.deepEqual(await admin().requests(), []);
    assert.equal((await admin().counters()).totalBillable, 0);
    assert.ok(!(await admin().keys()).some((x) => x.key === k.key));
    assert.equal((await post(emu(), '/v1/messages', chatBody('x'), messagesHeaders())).status, 200);
    assert.equal(emu().balance(DEMO), Math.round((100 - emu().requests()[0].charged!) * 1e6) / 1e6);
    assert.ok(emu().requests()[0].charged! > 0);
  });
});
