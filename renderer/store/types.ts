import type { StateCreator } from 'zustand';
import type { CardsSlice } from './cards';
import type { CheckoutsSlice } from './checkouts';
import type { ClockSlice } from './clock';
import type { CustomersSlice } from './customers';
import type { EventsSlice } from './events';
import type { FaultsSlice } from './faults';
import type { HomeSlice } from './home';
import type { InvoicesSlice } from './invoices';
import type { LiveSlice } from './live';
import type { MerchantsSlice } from './merchants';
import type { MoneySlice } from './money';
import type { NoticesSlice } from './notices';
import type { PresentationSlice } from './presentation';
import type { RequestsSlice } from './requests';
import type { ResellersSlice } from './resellers';
import type { SandboxSlice } from './sandbox-state';
import type { ScenariosSlice } from './scenarios';
import type { StoriesSlice } from './stories';
import type { SyncSlice } from './sync';
import type { TestingToolsSlice } from './testing-tools';
import type { WebhooksSlice } from './webhooks';
import type { WorkspacesSlice } from './workspaces';

/** The whole store: one slice per area. A new area (checkouts, webhooks, cards) adds a slice here. */
export type Store = SandboxSlice &
  NoticesSlice &
  LiveSlice &
  MerchantsSlice &
  ClockSlice &
  SyncSlice &
  CheckoutsSlice &
  WebhooksSlice &
  MoneySlice &
  CardsSlice &
  ResellersSlice &
  RequestsSlice &
  CustomersSlice &
  InvoicesSlice &
  EventsSlice &
  ScenariosSlice &
  HomeSlice &
  PresentationSlice &
  StoriesSlice &
  WorkspacesSlice &
  TestingToolsSlice &
  FaultsSlice;

/** A slice creator that can read and write the whole store (zustand slices pattern). */
export type Slice<T> = StateCreator<Store, [], [], T>;
