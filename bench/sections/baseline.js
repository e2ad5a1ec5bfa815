// (a) The yardstick: a bare Fastify hello world under the same load as the sandbox routes.
import { load, startBaseline, stop } from '../lib.js';

export default {
  name: 'baseline',
  async run({ config }) {
    const server = await startBaseline();
    try {
      const result = await load({ url: `${server.url}/`, ...config.load });
      return [{ kind: 'load', name: 'bare Fastify GET /', baseline: true, result }];
    } finally {
      await stop(server.child);
    }
  },
};
