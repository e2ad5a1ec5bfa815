/**
 * The control operations no MCP tool calls, each with the reason. Every operation of the OpenAPI
 * document under /sandbox is either called by a tool (its `operations`) or listed here:
 * test/integration/cli/cli-mcp.test.ts fails on a control route that is in neither, so a new route
 * gets a tool or a reason.
 */
export const NOT_TOOLS: Readonly<Record<string, string>> = {
  sandboxGetHealth:
    'nothing for an agent to act on: `svc-sandbox mcp` does not start without a sandbox answering (it lists the workspaces first)',
  sandboxGetWorkspace: 'workspaces_list answers every workspace with the same fields',
  sandboxCreateMerchantCheckout:
    "checkout_create goes through /v1 with the merchant's own key, as the app under test would",
  sandboxGetWebhookEndpoint: 'webhook_endpoints_list answers each endpoint in full',
  sandboxReceiveInboxWebhook:
    "the inbox's receiving end: the sandbox's webhooks are sent there, an agent reads them with inbox_read",
  sandboxCreateListenSession:
    "`svc-sandbox listen`'s session (an endpoint per merchant, forwarded to a local app); an agent uses inbox_endpoint_create",
  sandboxDeleteListenSession:
    "ends `svc-sandbox listen`'s session; an agent's inbox endpoints are webhook endpoints",
  sandboxGetListenSecret:
    "`svc-sandbox listen`'s shared secret, for forwarding to a local app; an agent uses inbox_endpoint_create",
  sandboxListWebhookEndpointHealth:
    "the dashboard's summary of deliveries_list; explain and delivery_get show each attempt",
  sandboxGetWebhookEndpointHealth:
    "the dashboard's summary of deliveries_list; explain and delivery_get show each attempt",
  sandboxCreateDepositBurst:
    'a load rehearsal (hundreds of transfers at once) for scenario files; deposit_create makes one',
  sandboxGetMerchantLedger:
    'the double-entry ledger, for auditing fee splits in the dashboard; balances answers the sums',
  sandboxStreamEvents:
    'a server-sent event stream, which a request/response tool cannot hold open; events_list, deliveries_list and inbox_read read the same records',
  sandboxListKeys:
    "the RSA key for card-secret sessions: secrets come back encrypted to the app's session key, useless to an agent",
  sandboxCreateCardSecret: "card secrets come back encrypted to the app's session key, useless to an agent",
  sandboxPinCard: "the PIN comes back encrypted to the app's session key, useless to an agent",
  sandboxListMerchantCustomers:
    "a read view of what the app made on /v1, which the app reads there; explain tells one object's story",
  sandboxGetCustomer:
    "a read view of what the app made on /v1, which the app reads there; explain tells one object's story",
  sandboxListMerchantInvoices:
    "a read view of what the app made on /v1, which the app reads there; explain tells one object's story",
  sandboxGetInvoice:
    "a read view of what the app made on /v1, which the app reads there; explain tells one object's story",
  sandboxListMerchantStaticAddresses: 'a read view of what the app made on /v1, which the app reads there',
  sandboxStartRecording:
    "recording turns a person's dashboard clicks into a scenario file; an agent calls the tools itself",
  sandboxGetRecording:
    "recording turns a person's dashboard clicks into a scenario file; an agent calls the tools itself",
  sandboxAddRecordingExpectation:
    "recording turns a person's dashboard clicks into a scenario file; an agent calls the tools itself",
  sandboxStopRecording:
    "recording turns a person's dashboard clicks into a scenario file; an agent calls the tools itself",
  sandboxGetScenarioSchema:
    'the scenario file schema ships as docs/scenario.schema.json; files run with `svc-sandbox run`',
  sandboxRunScenarios:
    'scenario files run with `svc-sandbox run FILE --url …`; scenario_trigger runs the built-in ones',
  sandboxCheckParity:
    'a recorded session is a file in the repository: `svc-sandbox parity FILE` checks it, as CI does',
  sandboxGetLibraryScenario:
    "a built-in scenario's YAML; scenarios_list describes each and scenario_trigger runs it",
  sandboxExportWorkspace:
    'a binary bundle written to a file: `svc-sandbox export`; checkpoints go back in time without files',
  sandboxImportWorkspace:
    'a binary bundle read from a file: `svc-sandbox import` or `workspaces create --import`',
  sandboxGetWorkspaceContents:
    "the dashboard's summary before an export; `svc-sandbox export` writes the bundle",
};
