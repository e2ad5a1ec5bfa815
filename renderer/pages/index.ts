import { type ComponentType, lazy } from 'react';
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
import { CodeIcon, CustomersIcon, EventsIcon, FaultsIcon, InvoicesIcon } from '../components/view-icons';
import { HomePage } from './Home/HomePage';
import { ScenariosIcon } from './Scenarios/ScenariosIcon';
import { SettingsIcon } from './Settings/SettingsIcon';

/**
 * A page's code is its own chunk, loaded when the page is first opened (App wraps it in Suspense):
 * the first paint needs only the shell and the home page (its charts are a chunk of their own).
 */
const onDemand = <K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) =>
  lazy(async () => ({ default: (await load())[name] }));

const CardsPage = onDemand(() => import('./Cards/CardsPage'), 'CardsPage');
const CheckoutsPage = onDemand(() => import('./Checkouts/CheckoutsPage'), 'CheckoutsPage');
const ClockPage = onDemand(() => import('./Clock/ClockPage'), 'ClockPage');
const DevelopersPage = onDemand(() => import('./Developers/DevelopersPage'), 'DevelopersPage');
const CoveragePage = onDemand(() => import('./Coverage/CoveragePage'), 'CoveragePage');
const CustomersPage = onDemand(() => import('./Customers/CustomersPage'), 'CustomersPage');
const FaultsPage = onDemand(() => import('./Faults/FaultsPage'), 'FaultsPage');
const EventsPage = onDemand(() => import('./Events/EventsPage'), 'EventsPage');
const InvoicesPage = onDemand(() => import('./Invoices/InvoicesPage'), 'InvoicesPage');
const MerchantsPage = onDemand(() => import('./Merchants/MerchantsPage'), 'MerchantsPage');
const MoneyPage = onDemand(() => import('./Money/MoneyPage'), 'MoneyPage');
const RequestsPage = onDemand(() => import('./Requests/RequestsPage'), 'RequestsPage');
const ResellersPage = onDemand(() => import('./Resellers/ResellersPage'), 'ResellersPage');
const ScenariosPage = onDemand(() => import('./Scenarios/ScenariosPage'), 'ScenariosPage');
const SettingsPage = onDemand(() => import('./Settings/SettingsPage'), 'SettingsPage');
const WebhooksPage = onDemand(() => import('./Webhooks/WebhooksPage'), 'WebhooksPage');

export interface PageDef {
  /** The hash route: #/<id>. */
  id: string;
  label: string;
  description: string;
  /** The description in a merchant's words, shown instead while presenting (when it differs). */
  plain?: string;
  Icon: ComponentType;
  Component: ComponentType;
  /** Shows one merchant in one environment: the header carries the merchant and environment picker. */
  scoped?: boolean;
  /** Developer material (keys, requests, payloads): left out of the nav in presentation mode. */
  developer?: boolean;
}

/**
 * The dashboard's areas, in nav order. A new area is a folder under
 * pages/ plus one entry here; the sidebar and the router follow.
 */
export const pages: PageDef[] = [
  {
    id: 'home',
    label: 'Home',
    description: 'The merchant at a glance: balances, payments, cards, webhooks and what happened.',
    Icon: OverviewIcon,
    Component: HomePage,
    scoped: true,
  },
  {
    id: 'merchants',
    label: 'Merchants',
    description: 'Merchants and the API keys your integration uses.',
    plain: 'The businesses in this sandbox.',
    Icon: MerchantsIcon,
    Component: MerchantsPage,
  },
  {
    id: 'checkouts',
    label: 'Checkouts',
    description: 'Payment requests: play the payer and the chain, settle, expire, refund.',
    plain: 'Ask customers to pay, then act as the customer: pay in full or in part, refund, let it run out.',
    Icon: CheckoutsIcon,
    Component: CheckoutsPage,
    scoped: true,
  },
  {
    id: 'customers',
    label: 'Customers',
    description: 'The merchant’s customers, with the invoices and checkouts made for them.',
    Icon: CustomersIcon,
    Component: CustomersPage,
    scoped: true,
  },
  {
    id: 'invoices',
    label: 'Invoices',
    description: 'Invoices: line items, tax and totals, and the checkout that collects each.',
    Icon: InvoicesIcon,
    Component: InvoicesPage,
    scoped: true,
  },
  {
    id: 'events',
    label: 'Events',
    description: 'The event log: every event of the merchant, filter by type, find by id, read the payload.',
    Icon: EventsIcon,
    Component: EventsPage,
    scoped: true,
    developer: true,
  },
  {
    id: 'webhooks',
    label: 'Webhooks',
    description: 'Endpoints, every delivery attempt, and a built-in inbox to receive them.',
    plain:
      'Notifications sent to the merchant’s own systems, each attempt, and a receiver to watch them arrive.',
    Icon: WebhooksIcon,
    Component: WebhooksPage,
    scoped: true,
  },
  {
    id: 'money',
    label: 'Money',
    description: 'Balances, deposits to static addresses, payouts and the ledger behind them.',
    plain: 'Balances, deposit addresses, payouts and every movement of money.',
    Icon: MoneyIcon,
    Component: MoneyPage,
    scoped: true,
  },
  {
    id: 'cards',
    label: 'Cards',
    description: 'Cardholders, identity checks, cards, and the card network’s authorizations.',
    plain: 'The team’s company cards: who holds them, their identity checks, and every card payment.',
    Icon: CardsIcon,
    Component: CardsPage,
    scoped: true,
  },
  {
    id: 'resellers',
    label: 'Resellers',
    description:
      'Act for other merchants: connections and their rates, checkouts on their behalf, fee income.',
    plain: 'Selling for other businesses, and who sells for this one: their rates and the fees earned.',
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
    developer: true,
  },
  {
    id: 'faults',
    label: 'Faults',
    description:
      'Make the API misbehave on purpose: errors, 429 with Retry-After, latency, timeouts and lost responses, seeded.',
    Icon: FaultsIcon,
    Component: FaultsPage,
    developer: true,
  },
  {
    id: 'scenarios',
    label: 'Scenarios',
    description: 'Record what you do as a scenario file, run scenarios step by step, export the workspace.',
    Icon: ScenariosIcon,
    Component: ScenariosPage,
    developer: true,
  },
  {
    id: 'coverage',
    label: 'Coverage',
    description:
      "Which of the spec's events and state transitions this workspace reached since it was made or reset; unreached ones highlighted.",
    Icon: EventsIcon,
    Component: CoveragePage,
    developer: true,
  },
  {
    id: 'developers',
    label: 'Developers',
    description: 'Where the sandbox listens, a first call with an API key, and the API reference.',
    Icon: CodeIcon,
    Component: DevelopersPage,
    developer: true,
  },
  {
    id: 'clock',
    label: 'Clock',
    description: 'Sandbox time: advance it to make expiries, settlements and retries happen now.',
    plain: 'Move time forward to make expiries, settlements and retries happen now.',
    Icon: ClockIcon,
    Component: ClockPage,
  },
  {
    id: 'settings',
    label: 'Settings',
    description: 'Fees, settlement, card review, webhook timeout, limits; merchant KYB; reset.',
    Icon: SettingsIcon,
    Component: SettingsPage,
    developer: true,
  },
];

export const findPage = (id: string): PageDef => pages.find((page) => page.id === id) ?? pages[0]!;
