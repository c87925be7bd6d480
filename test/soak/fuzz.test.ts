// Soak: the gateway core's property-based fuzz (any bytes → a Message or a typed GatewayError, never another
// exception) at 10,000 cases per property instead of the 300 of `npm test`.
process.env.FC_RUNS ??= '10000';
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('../unit/gateway/property.test');
