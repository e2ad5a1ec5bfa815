import type { Tool } from './tool.js';
import { cardTools } from './tools-cards.js';
import { fundsTools } from './tools-funds.js';
import { inspectTools } from './tools-inspect.js';
import { merchantTools } from './tools-merchants.js';
import { resellerTools } from './tools-resellers.js';
import { webhookTools } from './tools-webhooks.js';
import { worldTools } from './tools-world.js';

/** Every tool `svc-sandbox mcp` offers, in the order an agent meets them. */
export const TOOLS: readonly Tool[] = [
  ...worldTools,
  ...merchantTools,
  ...fundsTools,
  ...cardTools,
  ...resellerTools,
  ...webhookTools,
  ...inspectTools,
];
