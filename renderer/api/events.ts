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

/** Subscribes to the server's live stream (GET /sandbox/events, server-sent events). Returns an unsubscribe. */
export function subscribeToEvents(handlers: StreamHandlers): () => void {
  const source = new EventSource('/sandbox/events');
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
  return () => source.close();
}
