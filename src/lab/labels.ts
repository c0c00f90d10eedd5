/**
 * What the lab calls its stand-ins, so that no reader mistakes them for the real thing: the gateway is always
 * HAProxy doing what the named gateway's mechanism does, and the pod's log is the stand-in's, shaped like the
 * real server's log at a named release. Used by the CLI's reports and by the lab page.
 */

/** Where each stand-in's shutdown log lines come from: the release (and files) whose wording and order they follow. */
const STAND_IN_LOG_FORMAT: Readonly<Record<string, string>> = {
  vllm: 'vLLM after PR #43707 (May 2026; launcher.py, async_llm.py, core.py), whose first release is not verified; v0.18.1 does not print the [shutdown] lines',
  sglang: "SGLang's main branch in 2026 (tokenizer_manager.py sigterm_watchdog, http_server.py)",
  tgi: 'TGI v3.3.7 (launcher/src/main.rs terminate() and shutdown_shards(), router/src/server.rs)',
  triton: 'Triton r25.05 (server src/triton_signal.cc and src/http_server.cc, core src/server.cc)',
  llamacpp: "llama.cpp's tools/server/server.cpp (2026)",
};

/** The sentence that labels a stand-in's log: stand-in output, shaped like which server's log at which release. */
export function standInLogLabel(modelServer: string, modelServerName: string = modelServer): string {
  const format = STAND_IN_LOG_FORMAT[modelServer];
  return format
    ? `Stand-in output, shaped like the log of ${format}. Times are model seconds after the deletion.`
    : `Stand-in output; it does not follow a ${modelServerName} release. Times are model seconds after the deletion.`;
}

/** What stands in for the gateway: "HAProxy with Istio's removal delay", never just the gateway's name. */
export function standInGatewayLabel(mechanism: string, gatewayName: string): string {
  if (mechanism === 'health-check') return 'HAProxy with health checks only';
  if (mechanism === 'endpoint-view') return `HAProxy with ${gatewayName}'s removal delay and health checks`;
  return `HAProxy with ${gatewayName}'s removal delay`;
}
