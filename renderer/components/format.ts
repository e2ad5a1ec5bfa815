// Sandbox time is shown in UTC: it is what the API returns and what webhooks carry.

const dateTime = new Intl.DateTimeFormat('en-GB', {
  weekday: 'short',
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});
const time = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});
const shortDate = new Intl.DateTimeFormat('en-GB', {
  day: '2-digit',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: 'UTC',
});

export const formatDate = (ms: number) => dateTime.format(ms);
export const formatTime = (ms: number) => time.format(ms);
export const formatTimestamp = (iso: string) => `${shortDate.format(Date.parse(iso))} UTC`;

/** "+1 d 2 h 3 min" ahead of (or behind) real time; "in step with real time" at zero. */
export function formatOffset(ms: number): string {
  const sign = ms < 0 ? '−' : '+';
  let seconds = Math.round(Math.abs(ms) / 1000);
  if (seconds === 0) return 'in step with real time';
  const days = Math.floor(seconds / 86400);
  seconds -= days * 86400;
  const hours = Math.floor(seconds / 3600);
  seconds -= hours * 3600;
  const minutes = Math.floor(seconds / 60);
  seconds -= minutes * 60;
  const parts = [
    days ? `${days} d` : '',
    hours ? `${hours} h` : '',
    minutes ? `${minutes} min` : '',
    seconds && !days ? `${seconds} s` : '',
  ].filter(Boolean);
  return `${sign}${parts.join(' ')} ${ms < 0 ? 'behind' : 'ahead of'} real time`;
}
