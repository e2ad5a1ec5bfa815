// Small stroke icons (24×24 grid, currentColor) so the dashboard needs no icon library.
import type { ReactNode } from 'react';

export function Icon({ children }: { children: ReactNode }) {
  return (
    <svg
      className="icon"
      viewBox="0 0 24 24"
      width="18"
      height="18"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}

export const OverviewIcon = () => (
  <Icon>
    <rect x="3" y="3" width="7" height="9" rx="1.5" />
    <rect x="14" y="3" width="7" height="5" rx="1.5" />
    <rect x="14" y="12" width="7" height="9" rx="1.5" />
    <rect x="3" y="16" width="7" height="5" rx="1.5" />
  </Icon>
);

export const MerchantsIcon = () => (
  <Icon>
    <path d="M4 10h16v10H4z" />
    <path d="M3 10l2-6h14l2 6" />
    <path d="M10 20v-5h4v5" />
  </Icon>
);

export const ClockIcon = () => (
  <Icon>
    <circle cx="12" cy="12" r="9" />
    <path d="M12 7v5l3 2" />
  </Icon>
);

export const KeyIcon = () => (
  <Icon>
    <circle cx="8" cy="15" r="4" />
    <path d="M10.8 12.2L20 3" />
    <path d="M17 6l3 3" />
  </Icon>
);

export const LogoMark = () => (
  <svg className="logo-mark" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
    <rect width="32" height="32" rx="8" fill="#4f46e5" />
    <path
      d="M9 20.5c1.6 1.3 3.7 2 6 2 3.3 0 5.5-1.5 5.5-3.9 0-5-10.6-2.8-10.6-7.6 0-2 1.9-3.5 4.8-3.5 2 0 3.8.6 5.1 1.6"
      fill="none"
      stroke="#fff"
      strokeWidth="2.4"
      strokeLinecap="round"
    />
    <circle cx="23.5" cy="22.5" r="2.5" fill="#a5b4fc" />
  </svg>
);

export const CheckoutsIcon = () => (
  <Icon>
    <rect x="3" y="5" width="18" height="14" rx="2" />
    <path d="M3 10h18" />
    <path d="M7 15h4" />
  </Icon>
);

export const WebhooksIcon = () => (
  <Icon>
    <circle cx="6" cy="17" r="2.5" />
    <circle cx="18" cy="17" r="2.5" />
    <circle cx="12" cy="6" r="2.5" />
    <path d="M10.8 8.2L7.3 14.8" />
    <path d="M13.2 8.2l3.5 6.6" />
    <path d="M8.5 17h7" />
  </Icon>
);

export const MoneyIcon = () => (
  <Icon>
    <path d="M4 7h14a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2V7z" />
    <path d="M4 7l11-3 1 3" />
    <circle cx="16" cy="13" r="1.3" />
  </Icon>
);

export const CardsIcon = () => (
  <Icon>
    <rect x="2.5" y="6" width="19" height="13" rx="2" />
    <path d="M2.5 10h19" />
    <path d="M6 15h3" />
    <path d="M13 15h2" />
  </Icon>
);

export const ResellersIcon = () => (
  <Icon>
    <circle cx="6" cy="12" r="2.5" />
    <circle cx="18" cy="6" r="2.5" />
    <circle cx="18" cy="18" r="2.5" />
    <path d="M8.3 10.9l7.4-3.8" />
    <path d="M8.3 13.1l7.4 3.8" />
  </Icon>
);

export const InboxIcon = () => (
  <Icon>
    <path d="M4 13l2.5-7h11L20 13v5a1 1 0 0 1-1 1H5a1 1 0 0 1-1-1v-5z" />
    <path d="M4 13h4.5l1 2h5l1-2H20" />
  </Icon>
);

export const LockIcon = () => (
  <Icon>
    <rect x="5" y="11" width="14" height="9" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </Icon>
);

export const RequestsIcon = () => (
  <Icon>
    <path d="M4 7h11" />
    <path d="M12 4l3 3-3 3" />
    <path d="M20 17H9" />
    <path d="M12 14l-3 3 3 3" />
  </Icon>
);
