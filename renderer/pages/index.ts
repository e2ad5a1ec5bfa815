import type { ComponentType } from 'react';
import {
  CardsIcon,
  CheckoutsIcon,
  ClockIcon,
  MerchantsIcon,
  MoneyIcon,
  OverviewIcon,
  RequestsIcon,
  ResellersIcon,
  WebhooksIcon,
} from '../components/icons';
import { CardsPage } from './Cards/CardsPage';
import { CheckoutsPage } from './Checkouts/CheckoutsPage';
import { ClockPage } from './Clock/ClockPage';
import { MerchantsPage } from './Merchants/MerchantsPage';
import { MoneyPage } from './Money/MoneyPage';
import { OverviewPage } from './Overview/OverviewPage';
import { RequestsPage } from './Requests/RequestsPage';
import { ResellersPage } from './Resellers/ResellersPage';
import { ScenariosIcon } from './Scenarios/ScenariosIcon';
import { ScenariosPage } from './Scenarios/ScenariosPage';
import { WebhooksPage } from './Webhooks/WebhooksPage';

export interface PageDef {
  /** The hash route: #/<id>. */
  id: string;
  label: string;
  description: string;
  Icon: ComponentType;
  Component: ComponentType;
  /** Shows one merchant in one environment: the header carries the merchant and environment picker. */
  scoped?: boolean;
}

/**
 * The dashboard's areas, in nav order. A new area is a folder under
 * pages/ plus one entry here; the sidebar and the router follow.
 */
export const pages: PageDef[] = [
  {
    id: 'overview',
    label: 'Overview',
    description: 'Where the sandbox listens and how to call it.',
    Icon: OverviewIcon,
    Component: OverviewPage,
  },
  {
    id: 'merchants',
    label: 'Merchants',
    description: 'Merchants and the API keys your integration uses.',
    Icon: MerchantsIcon,
    Component: MerchantsPage,
  },
  {
    id: 'checkouts',
    label: 'Checkouts',
    description: 'Payment requests: play the payer and the chain, settle, expire, refund.',
    Icon: CheckoutsIcon,
    Component: CheckoutsPage,
    scoped: true,
  },
  {
    id: 'webhooks',
    label: 'Webhooks',
    description: 'Endpoints, every delivery attempt, and a built-in inbox to receive them.',
    Icon: WebhooksIcon,
    Component: WebhooksPage,
    scoped: true,
  },
  {
    id: 'money',
    label: 'Money',
    description: 'Balances, deposits to static addresses, payouts and the ledger behind them.',
    Icon: MoneyIcon,
    Component: MoneyPage,
    scoped: true,
  },
  {
    id: 'cards',
    label: 'Cards',
    description: 'Cardholders, identity checks, cards, and the card network’s authorizations.',
    Icon: CardsIcon,
    Component: CardsPage,
    scoped: true,
  },
  {
    id: 'resellers',
    label: 'Resellers',
    description:
      'Act for other merchants: connections and their rates, checkouts on their behalf, fee income.',
    Icon: ResellersIcon,
    Component: ResellersPage,
    scoped: true,
  },
  {
    id: 'requests',
    label: 'Requests',
    description: 'The request log: every /v1 call, live, with its status, timing and bodies.',
    Icon: RequestsIcon,
    Component: RequestsPage,
    scoped: true,
  },
  {
    id: 'scenarios',
    label: 'Scenarios',
    description: 'Record what you do as a scenario file, run scenarios step by step, export the workspace.',
    Icon: ScenariosIcon,
    Component: ScenariosPage,
  },
  {
    id: 'clock',
    label: 'Clock',
    description: 'Sandbox time: advance it to make expiries, settlements and retries happen now.',
    Icon: ClockIcon,
    Component: ClockPage,
  },
];

export const findPage = (id: string): PageDef => pages.find((page) => page.id === id) ?? pages[0]!;
