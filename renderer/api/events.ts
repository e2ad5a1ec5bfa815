import { openWorkspaceStream } from './active-workspace';
import type { ChangeNotice, DeliveryNotice, RequestLogEntry, SandboxEvent } from './types';

export interface StreamHandlers {
  onOpen: () => void;
  /** The connection dropped; EventSource reconnects by itself. */
  onError: () => void;
  onEvent: (event: SandboxEvent) => void;
  /** A webhook delivery attempt: the delivery plus the attempt just made. */
  onDelivery?: (delivery: DeliveryNotice) => void;
  /** A /v1 request the request log recorded. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Something was committed (whatever caused it): what it touched, by area. */
  onChange?: (notice: ChangeNotice) => void;
}

/**
 * Subscribes to the server's live stream (sandboxStreamEvents, server-sent events) of the active
 * workspace, following it when the dashboard switches workspace. Returns an unsubscribe.
 */
export function subscribeToEvents(handlers: StreamHandlers): () => void {
  return openWorkspaceStream((source) => attach(source, handlers));
}

function attach(source: EventSource, handlers: StreamHandlers): void {
  const parse = (message: MessageEvent<string>): unknown => {
    try {
      return JSON.parse(message.data);
    } catch {
      return undefined;
    }
  };
  source.addEventListener('open', handlers.onOpen);
  source.addEventListener('error', handlers.onError);
  source.addEventListener('event', (message) => {
    const event = parse(message);
    if (event) handlers.onEvent(event as SandboxEvent);
  });
  source.addEventListener('delivery', (message) => {
    const delivery = parse(message);
    if (delivery) handlers.onDelivery?.(delivery as DeliveryNotice);
  });
  source.addEventListener('request', (message) => {
    const entry = parse(message);
    if (entry) handlers.onRequest?.(entry as RequestLogEntry);
  });
  source.addEventListener('change', (message) => {
    const notice = parse(message);
    if (notice) handlers.onChange?.(notice as ChangeNotice);
  });
}
