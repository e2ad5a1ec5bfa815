// (a) The yardstick: a bare Fastify hello world under the same load as the sandbox routes.
import { load, startBaseline, stop } from '../lib.js';

// run.js measures it before and after the other load sections: their mean is the reference, and
// the spread between the two shows how steady the machine was.
let runs = 0;

export default {
  name: 'baseline',
  async run({ config }) {
    const server = await startBaseline();
    try {
      const result = await load({ url: `${server.url}/`, ...config.load }, { serverPid: server.child.pid });
      const name = `bare Fastify GET / (${runs++ === 0 ? 'before' : 'after'})`;
      return [{ kind: 'load', name, baseline: true, result }];
    } finally {
      await stop(server.child);
    }
  },
};
