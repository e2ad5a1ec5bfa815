import type { Settings } from '../../contract/settings.js';

/**
 * The sandbox's defaults. Contract addresses are the tokens' real mainnet contracts so payloads look
 * like production; min/max/gas_fee are in the token's 6dp units (our choice: the spec shows none).
 */
export const DEFAULT_SETTINGS: Settings = {
  platform_rate: 0,
  settlement_delay_seconds: 60,
  application_review: 'auto',
  rate_limit_per_minute: 1000,
  concurrency_limit: 10,
  webhook_timeout_ms: 10_000,
  hosted_pages_frame_ancestors: [],
  chains: [
    {
      chain: 'ethereum',
      tokens: [
        {
          name: 'USDC',
          contract_address: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48',
          min: 10_000_000,
          max: 0,
          gas_fee: 2_000_000,
        },
        {
          name: 'USDT',
          contract_address: '0xdAC17F958D2ee523a2206206994597C13D831ec7',
          min: 10_000_000,
          max: 0,
          gas_fee: 2_000_000,
        },
        { name: 'ETH', contract_address: '', min: 0, max: 0, gas_fee: 500 },
      ],
    },
    {
      chain: 'tron',
      tokens: [
        {
          name: 'USDT',
          contract_address: 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t',
          min: 1_000_000,
          max: 0,
          gas_fee: 1_000_000,
        },
      ],
    },
    {
      chain: 'bitcoin',
      tokens: [{ name: 'BTC', contract_address: '', min: 0, max: 0, gas_fee: 20 }],
    },
    {
      chain: 'polygon',
      tokens: [
        {
          name: 'USDC',
          contract_address: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359',
          min: 0,
          max: 0,
          gas_fee: 10_000,
        },
        {
          name: 'USDT',
          contract_address: '0xc2132D05D31c914a87C6611C10748AEb04B58e8F',
          min: 0,
          max: 0,
          gas_fee: 10_000,
        },
      ],
    },
    {
      chain: 'bsc',
      tokens: [
        {
          name: 'USDT',
          contract_address: '0x55d398326f99059fF775485246999027B3197955',
          min: 1_000_000,
          max: 0,
          gas_fee: 100_000,
        },
      ],
    },
  ],
  card_catalogue: [
    { id: '6f1c2a8e-3b4d-4c5e-9f60-7a8b9c0d1e21', name: 'Virtual Visa (USD)', type: 'virtual' },
    { id: '8d2e3f4a-5b6c-4d7e-8f90-a1b2c3d4e5f6', name: 'Physical Visa (USD)', type: 'physical' },
  ],
};
