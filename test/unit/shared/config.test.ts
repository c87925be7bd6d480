import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import {
  CONFIG_KEYS,
  endpointUrls,
  parseConfig,
  requestHeaderNames,
  USER_ONLY_CONFIG_KEYS,
} from '../../../src/shared/config';

describe('platform: parseConfig', () => {
  it('gives the documented defaults for an empty record', () => {
    const config = parseConfig({});
    assert.equal(config.baseUrl, '');
    assert.match(config.baseUrlProblem ?? '', /No base URL/);
    assert.equal(config.versionHeader, 'anthropic-version');
    assert.equal(config.version, '2023-06-01');
    assert.deepEqual(config.chat, { defaultModel: '', agentDefaultModel: '', maxTokens: 4096, systemPrompt: '' });
    assert.deepEqual(config.images, {
      defaultModel: '',
      outputFolder: 'images',
      defaultSize: '1024x1024',
      defaultQuality: 'auto',
      mode: 'async',
      editEncoding: 'json',
      confirmCostlyRequests: true,
      taskTimeoutMs: 1_800_000,
    });
    assert.equal(config.requestTimeoutMs, 120_000);
    assert.equal(config.modelCacheMs, 3_600_000);
    assert.deepEqual(config.modelKindOverrides, {});
    assert.equal(config.nativeChatEnabled, true);
    assert.deepEqual(config.problems, []);
  });

  it('matches the defaults declared in package.json', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const manifest = require('../../../package.json') as {
      contributes: { configuration: { properties: Record<string, { default: unknown }> } };
    };
    const raw: Record<string, unknown> = {};
    for (const key of CONFIG_KEYS)
      raw[key] = manifest.contributes.configuration.properties[`modelGateway.${key}`]?.default;
    assert.ok(
      CONFIG_KEYS.every((key) => `modelGateway.${key}` in manifest.contributes.configuration.properties),
      'every key is declared',
    );
    const fromManifest = parseConfig(raw);
    const fromNothing = parseConfig({});
    assert.deepEqual(fromManifest, fromNothing);
  });

  for (const [typed, expected] of [
    ['https://gw.example.com', 'https://gw.example.com'],
    ['https://gw.example.com/', 'https://gw.example.com'],
    ['https://gw.example.com/v1', 'https://gw.example.com'],
    ['https://gw.example.com/v1/', 'https://gw.example.com'],
    ['https://gw.example.com/v1/messages', 'https://gw.example.com'],
    ['https://gw.example.com/v1/chat/completions', 'https://gw.example.com'],
    ['https://gw.example.com/v1/models', 'https://gw.example.com'],
    ['https://host/proxy/gw', 'https://host/proxy/gw'],
    ['  https://host/proxy/gw/v1/  ', 'https://host/proxy/gw'],
  ] as const) {
    it(`normalises the base URL ${JSON.stringify(typed)} to ${expected}`, () => {
      const config = parseConfig({ baseUrl: typed });
      assert.equal(config.baseUrl, expected);
      assert.equal(config.baseUrlProblem, undefined);
      if (typed.trim() === expected) assert.equal(config.baseUrlNotice, undefined);
      else assert.match(config.baseUrlNotice ?? '', new RegExp(expected.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')));
    });
  }

  it('reports an unusable base URL instead of using it', () => {
    for (const typed of [
      'gw.example.com',
      'ftp://gw.example.com',
      'https://user:pw@gw.example.com',
      'https://gw.example.com/?a=1',
    ]) {
      const config = parseConfig({ baseUrl: typed });
      assert.equal(config.baseUrl, '', typed);
      assert.ok(config.baseUrlProblem, typed);
    }
  });

  it('lists the exact URLs called for a base URL', () => {
    const urls = endpointUrls('https://host/proxy/gw');
    assert.equal(urls.messages, 'https://host/proxy/gw/v1/messages');
    assert.equal(urls.models, 'https://host/proxy/gw/v1/models');
    assert.equal(urls.images, 'https://host/proxy/gw/v1/images/generations');
  });

  it('converts seconds and minutes to milliseconds', () => {
    const config = parseConfig({ requestTimeoutSeconds: 30, 'models.cacheMinutes': 0 });
    assert.equal(config.requestTimeoutMs, 30_000);
    assert.equal(config.modelCacheMs, 0);
  });

  it('replaces invalid values by defaults and says so', () => {
    const config = parseConfig({
      version: '2023/06/01',
      versionHeader: 'x-api-key',
      'chat.maxTokens': 0,
      'images.defaultSize': 'big',
      'images.mode': 'later',
      'images.outputFolder': '../outside',
      requestTimeoutSeconds: 'soon',
      'nativeChat.enabled': 'yes',
      'models.kindOverrides': { 'my-painter': 'image', odd: 'hologram' },
    });
    assert.equal(config.version, '2023-06-01');
    assert.equal(config.versionHeader, 'anthropic-version', 'an auth header cannot be the version header');
    assert.equal(config.chat.maxTokens, 1, 'a number below its minimum is clamped to it (settingBounds.test.ts)');
    assert.equal(config.images.defaultSize, '1024x1024');
    assert.equal(config.images.mode, 'async');
    assert.equal(config.images.outputFolder, 'images');
    assert.equal(config.requestTimeoutMs, 120_000);
    assert.equal(config.nativeChatEnabled, true);
    assert.deepEqual(config.modelKindOverrides, { 'my-painter': 'image' });
    const problems = (config.problems ?? []).join('\n');
    for (const key of [
      'version',
      'versionHeader',
      'chat.maxTokens',
      'images.defaultSize',
      'images.mode',
      'images.outputFolder',
      'requestTimeoutSeconds',
      'nativeChat.enabled',
      'odd',
    ]) {
      assert.ok(problems.includes(key), `problem mentions ${key}`);
    }
  });

  it('keeps valid non-default values', () => {
    const config = parseConfig({
      versionHeader: 'vendor-version',
      version: '2024-01-31',
      'chat.defaultModel': ' claude-x ',
      'chat.maxTokens': 100,
      'chat.systemPrompt': '  be brief\n',
      'images.mode': 'sync',
      'images.editEncoding': 'multipart',
      'images.defaultQuality': 'hd',
      'images.outputFolder': 'out/pics',
      'images.confirmCostlyRequests': false,
      'nativeChat.enabled': false,
    });
    assert.equal(config.versionHeader, 'vendor-version');
    assert.equal(config.version, '2024-01-31');
    assert.equal(config.chat.defaultModel, 'claude-x');
    assert.equal(config.chat.maxTokens, 100);
    assert.equal(config.chat.systemPrompt, '  be brief\n', 'the system prompt is kept verbatim');
    assert.equal(config.images.mode, 'sync');
    assert.equal(config.images.editEncoding, 'multipart');
    assert.equal(config.images.defaultQuality, 'hd');
    assert.equal(config.images.outputFolder, 'out/pics');
    assert.equal(config.images.confirmCostlyRequests, false);
    assert.equal(config.nativeChatEnabled, false);
    assert.deepEqual(config.problems, []);
  });
});

describe('platform: modelGateway.requestHeaders', () => {
  it('reads name → value; a name that is no token or a value with a line break is dropped and said', () => {
    const config = parseConfig({
      requestHeaders: {
        'x-portkey-provider': 'openai',
        'HTTP-Referer': 'https://example.com',
        'bad name': 'x',
        'x-injected': 'a\r\nx-evil: 1',
        'x-number': 5,
      },
    });
    assert.deepEqual(config.requestHeaders, { 'x-portkey-provider': 'openai', 'HTTP-Referer': 'https://example.com' });
    assert.equal(config.problems?.filter((p) => p.startsWith('modelGateway.requestHeaders')).length, 3);
    assert.deepEqual(parseConfig({}).requestHeaders, {});
    assert.deepEqual(parseConfig({ requestHeaders: ['x'] }).requestHeaders, {});
  });

  it('is a user-only setting: read from globalValue, restricted in untrusted workspaces, application scope', () => {
    assert.ok(USER_ONLY_CONFIG_KEYS.has('requestHeaders'));
    assert.ok((CONFIG_KEYS as readonly string[]).includes('requestHeaders'));
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as {
      capabilities: { untrustedWorkspaces: { restrictedConfigurations: string[] } };
      contributes: { configuration: { properties: Record<string, { scope?: string }> } };
    };
    assert.ok(
      manifest.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('modelGateway.requestHeaders'),
    );
    assert.equal(manifest.contributes.configuration.properties['modelGateway.requestHeaders'].scope, 'application');
  });

  it("names for logs and support: the setting's, then the secret ones marked (a secret one replaces its namesake)", () => {
    assert.deepEqual(requestHeaderNames({ 'x-a': '1', 'X-Team': 'blue' }, ['x-team', 'cf-aig-authorization']), [
      'x-a',
      'x-team (secret)',
      'cf-aig-authorization (secret)',
    ]);
  });
});
