import { usePresenting } from '../../components/Private';
import { eventInWords } from '../../lib/activity';

/**
 * An event type: as code for a developer (`checkout.paid`), in the merchant's words while presenting
 * ("Payment received").
 */
export function EventName({ type, strong = false }: { type: string; strong?: boolean }) {
  const presenting = usePresenting();
  if (presenting) return <span className={strong ? 'strong' : undefined}>{eventInWords(type)}</span>;
  return <code className={strong ? 'mono strong' : 'mono'}>{type}</code>;
}
