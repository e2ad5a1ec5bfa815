// Icons of the customer, invoice and event views, on the shared 24×24 stroke grid (icons.tsx).
import { Icon } from './icons';

export const CustomersIcon = () => (
  <Icon>
    <circle cx="9" cy="8" r="3.5" />
    <path d="M2.5 20c.8-3.6 3.3-5.5 6.5-5.5s5.7 1.9 6.5 5.5" />
    <path d="M16 4.8a3.3 3.3 0 0 1 0 6.4" />
    <path d="M18.5 14.8c1.6.8 2.6 2.5 3 5.2" />
  </Icon>
);

export const InvoicesIcon = () => (
  <Icon>
    <path d="M6 3h12v18l-3-2-3 2-3-2-3 2z" />
    <path d="M9 8h6" />
    <path d="M9 12h6" />
    <path d="M9 16h3" />
  </Icon>
);

export const EventsIcon = () => (
  <Icon>
    <path d="M4 6h16" />
    <path d="M4 12h16" />
    <path d="M4 18h10" />
    <circle cx="19" cy="18" r="1.5" />
  </Icon>
);

export const CodeIcon = () => (
  <Icon>
    <path d="M8 7l-5 5 5 5" />
    <path d="M16 7l5 5-5 5" />
    <path d="M13.5 4l-3 16" />
  </Icon>
);

export const FaultsIcon = () => (
  <Icon>
    <path d="M13 3L5 13.5h6L10 21l8-10.5h-6z" />
  </Icon>
);
