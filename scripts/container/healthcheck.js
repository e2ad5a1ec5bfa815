// The image's HEALTHCHECK: healthy once the test address answers /sandbox/health. Plain Node (the
// image has no curl), from inside the container, so always a loopback client.
const port = process.env.SVC_SANDBOX_PORT || '4010';
try {
  const response = await fetch(`http://127.0.0.1:${port}/sandbox/health`, {
    signal: AbortSignal.timeout(2000),
  });
  const body = await response.json();
  process.exit(response.ok && body.status === 'ok' ? 0 : 1);
} catch {
  process.exit(1);
}
