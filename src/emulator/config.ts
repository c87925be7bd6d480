// The default emulator configuration (also written to emulator.json) and the loader for config files.

import { dialectByName } from './dialects';
import type { EmulatorConfig, GroupConfig } from './types';

const ALL_ROUTES: GroupConfig['routes'] = [
  'messages',
  'images.generations',
  'images.edits',
  'images.generations.async',
  'images.edits.async',
];

/** A fresh copy of the default configuration. */
export function defaultConfig(): EmulatorConfig {
  return {
    keys: [
      { key: 'mg-demo-key-0001', name: 'demo', group: 'default', balance: 100 },
      { key: 'mg-chat-only-0002', name: 'chat-only', group: 'chat-only', balance: 100 },
      { key: 'mg-low-balance-0003', name: 'low-balance', group: 'default', balance: 0.00001 },
      { key: 'mg-revoked-0004', name: 'revoked', group: 'default', balance: 100, revoked: true },
      { key: 'mg-alt-key-0005', name: 'alt', group: 'alt', balance: 100 },
      {
        key: 'mg-rate-limited-0006',
        name: 'rate-limited',
        group: 'default',
        balance: 100,
        rateLimit: { requests: 2, windowMs: 60_000 },
      },
      { key: 'mg-disabled-group-0007', name: 'disabled-group', group: 'disabled', balance: 100 },
      // Its own group, so the default group's model list stays as every client test knows it.
      { key: 'mg-agent-key-0008', name: 'agent', group: 'agent', balance: 100 },
      // A group with a model whose channel has no Claude Messages conversion (new-api's dialect refuses it).
      { key: 'mg-openai-chat-0009', name: 'openai-chat', group: 'openai-chat', balance: 100 },
      // A DeepSeek-like reasoning model (reasoning_content must come back within a tool-calling turn).
      { key: 'mg-reasoning-0010', name: 'reasoning', group: 'reasoning', balance: 100 },
      // Code completion: two scripted coder models (FIM on /v1/completions, Codestral-style /v1/fim/completions)
      // and a chat model for the chat fill.
      { key: 'mg-coder-key-0011', name: 'coder', group: 'coder', balance: 100 },
      // The demo key's list as `npm start` serves it (scripts/lib/startOptions.mjs#withAgentModels adds the scripted
      // agent, codex and reasoner models to every Messages group): the tests of a new user's first hour use it.
      { key: 'mg-demo-start-0012', name: 'demo-start', group: 'demo-start', balance: 100 },
      // A sub2api OpenAI-platform group: OpenAI models only (its Messages route finds no account for them).
      { key: 'mg-openai-group-0013', name: 'openai-group', group: 'openai-group', balance: 100 },
    ],
    groups: {
      default: {
        models: {
          'claude-demo-sonnet': 'demo-sonnet-upstream',
          'claude-demo-haiku': 'demo-haiku-upstream',
          'gpt-image-demo': 'demo-image-upstream',
          'flux-demo-schnell': 'flux-schnell-upstream',
        },
        routes: [...ALL_ROUTES],
      },
      'chat-only': {
        models: { 'claude-demo-sonnet': 'demo-sonnet-upstream', 'claude-demo-haiku': 'demo-haiku-upstream' },
        routes: ['messages'],
      },
      alt: {
        models: { 'claude-alt-opus': 'demo-opus-upstream', 'flux-demo-schnell': 'flux-schnell-upstream' },
        routes: [...ALL_ROUTES],
      },
      disabled: { enabled: false, models: { 'claude-demo-haiku': 'demo-haiku-upstream' }, routes: ['messages'] },
      agent: {
        models: { 'claude-demo-agent': 'demo-agent-upstream', 'claude-demo-sonnet': 'demo-sonnet-upstream' },
        routes: ['messages'],
      },
      coder: {
        models: {
          'qwen2.5-coder-demo': 'demo-coder-upstream',
          'codestral-demo': 'demo-codestral-upstream',
          'claude-demo-sonnet': 'demo-sonnet-upstream',
        },
        routes: ['messages'],
      },
      'openai-chat': {
        models: {
          'gpt-demo-chat': 'demo-gpt-upstream',
          'claude-demo-sonnet': 'demo-sonnet-upstream',
          'gpt-demo-codex': 'demo-codex-upstream',
        },
        routes: ['messages'],
      },
      reasoning: {
        models: { 'deepseek-demo-reasoner': 'demo-reasoner-upstream', 'gpt-demo-codex': 'demo-codex-upstream' },
        routes: ['messages'],
      },
      'openai-group': {
        models: { 'gpt-demo-chat': 'demo-gpt-upstream', 'gpt-demo-codex': 'demo-codex-upstream' },
        routes: ['messages'],
      },
      'demo-start': {
        models: {
          'claude-demo-sonnet': 'demo-sonnet-upstream',
          'claude-demo-haiku': 'demo-haiku-upstream',
          'gpt-image-demo': 'demo-image-upstream',
          'flux-demo-schnell': 'flux-schnell-upstream',
          'claude-demo-agent': 'demo-agent-upstream',
          'gpt-demo-codex': 'demo-codex-upstream',
          'deepseek-demo-reasoner': 'demo-reasoner-upstream',
        },
        routes: [...ALL_ROUTES],
      },
    },
    models: {
      // listPrices: what the model list publishes (a "gateway price" next to each answer) and what a reply or a fill is
      // charged (billing.ts#replyPrice), so the answer's cost, Show Usage and the balance agree.
      'demo-sonnet-upstream': {
        protocol: 'messages',
        displayName: 'Claude Demo Sonnet',
        contextWindow: 200_000,
        listPrices: { input: 3, output: 15 },
      },
      'demo-haiku-upstream': {
        protocol: 'messages',
        displayName: 'Claude Demo Haiku',
        contextWindow: 200_000,
        listPrices: { input: 1, output: 5 },
      },
      'demo-gpt-upstream': {
        protocol: 'messages',
        displayName: 'GPT Demo Chat',
        contextWindow: 128_000,
        listPrices: { input: 2.5, output: 10 },
        messagesConversion: false,
        vision: false,
      },
      // Responses-only (new-api lists it as openai-response): a reasoning, scripted agent model like the codex ones.
      'demo-codex-upstream': {
        protocol: 'messages',
        kind: 'responses',
        displayName: 'GPT Demo Codex (Responses only)',
        contextWindow: 400_000,
        listPrices: { input: 1.25, output: 10 },
        agent: true,
        thinks: true,
      },
      // DeepSeek-like thinking mode over chat-completions: a scripted agent that reasons on every reply.
      'demo-reasoner-upstream': {
        protocol: 'messages',
        displayName: 'DeepSeek Demo Reasoner',
        contextWindow: 128_000,
        listPrices: { input: 0.55, output: 2.19 },
        messagesConversion: false,
        agent: true,
        thinks: true,
      },
      'demo-opus-upstream': {
        protocol: 'messages',
        displayName: 'Claude Alt Opus',
        contextWindow: 200_000,
        listPrices: { input: 15, output: 75 },
      },
      // The scripted agent (src/emulator/models/agentScript.ts): follows @tool... directives, summarises tool_results.
      'demo-agent-upstream': {
        protocol: 'messages',
        displayName: 'Claude Demo Agent (scripted)',
        agent: true,
        contextWindow: 200_000,
        listPrices: { input: 3, output: 15 },
      },
      'demo-coder-upstream': {
        protocol: 'messages',
        displayName: 'Qwen2.5 Coder Demo (scripted)',
        fim: true,
        contextWindow: 32_768,
        listPrices: { input: 0.2, output: 0.6 },
      },
      'demo-codestral-upstream': {
        protocol: 'messages',
        displayName: 'Codestral Demo (scripted)',
        fim: true,
        contextWindow: 256_000,
        listPrices: { input: 0.3, output: 0.9 },
      },
      'demo-image-upstream': { protocol: 'images', displayName: 'GPT Image Demo' },
      'flux-schnell-upstream': { protocol: 'images', displayName: 'FLUX Demo Schnell' },
    },
    prices: {
      message: 0.002,
      image: 0.04,
      quality: { low: 0.5, medium: 1, standard: 1, auto: 1, high: 2, hd: 2 },
      referenceImage: 0.01,
      edit: 0.02,
    },
    messages: {
      versionHeader: 'anthropic-version',
      acceptedVersions: ['2023-06-01', '2023-01-01'],
      tokensPerSecond: 400,
      // cache_control accounting: prefixes under minTokens are not cached; entries live ttlMs after their last use.
      promptCache: { minTokens: 1024, ttlMs: 300_000 },
    },
    // The coder models' answer time (a real coder model answers a short fill in 100–300 ms).
    completions: { latencyMs: 0 },
    images: { defaultSize: '1024x1024', minSide: 16, maxSide: 2048, maxN: 4 },
    tasks: { durationMs: 3000, retryAfterSec: 3, ttlMs: 24 * 3600_000 },
    maxBodyBytes: 20 * 1024 * 1024,
    basePath: '',
    // Wire shapes of a real gateway family (src/emulator/dialects); 'default' = the emulator's own.
    dialect: 'default',
  };
}

/** Fills what a partial config (e.g. a hand-written emulator.json) leaves out from the defaults, one section deep. */
export function completeConfig(partial: Partial<EmulatorConfig>): EmulatorConfig {
  const d = defaultConfig();
  return {
    keys: partial.keys ?? d.keys,
    groups: partial.groups ?? d.groups,
    models: partial.models ?? d.models,
    prices: { ...d.prices, ...partial.prices },
    messages: { ...d.messages, ...partial.messages },
    completions: { ...d.completions, ...partial.completions },
    images: { ...d.images, ...partial.images },
    tasks: { ...d.tasks, ...partial.tasks },
    maxBodyBytes: partial.maxBodyBytes ?? d.maxBodyBytes,
    basePath: (partial.basePath ?? d.basePath).replace(/\/+$/, ''),
    dialect: partial.dialect ?? d.dialect,
  };
}

/** Parses config file text; throws with a readable message on anything that is not a config object. */
export function parseConfigText(text: string): EmulatorConfig {
  const raw: unknown = JSON.parse(text);
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new Error('emulator config must be a JSON object');
  const cfg = completeConfig(raw as Partial<EmulatorConfig>);
  if (cfg.dialect !== undefined && typeof cfg.dialect !== 'string') throw new Error('dialect must be a string');
  dialectByName(cfg.dialect); // throws on an unknown name, listing the known ones
  for (const k of cfg.keys) {
    if (!cfg.groups[k.group]) throw new Error(`key '${k.name}' names unknown group '${k.group}'`);
  }
  for (const [name, g] of Object.entries(cfg.groups)) {
    for (const [visible, upstream] of Object.entries(g.models)) {
      if (!cfg.models[upstream]) throw new Error(`group '${name}' maps '${visible}' to unknown model '${upstream}'`);
    }
  }
  return cfg;
}
