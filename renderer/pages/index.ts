import type { ComponentType } from 'react';
import { ClockIcon, MerchantsIcon, OverviewIcon } from '../components/icons';
import { ClockPage } from './Clock/ClockPage';
import { MerchantsPage } from './Merchants/MerchantsPage';
import { OverviewPage } from './Overview/OverviewPage';

export interface PageDef {
  /** The hash route: #/<id>. */
  id: string;
  label: string;
  description: string;
  Icon: ComponentType;
  Component: ComponentType;
}

/**
 * The dashboard's areas, in nav order. A new area (checkouts, webhooks, cards) is a folder under
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
    id: 'clock',
    label: 'Clock',
    description: 'Sandbox time: advance it to make expiries, settlements and retries happen now.',
    Icon: ClockIcon,
    Component: ClockPage,
  },
];

export const findPage = (id: string): PageDef => pages.find((page) => page.id === id) ?? pages[0]!;
