/**
 * Display names for a lab scenario's gateway and model server: from the results, else from the profiles (results
 * written before the lab recorded the names).
 */
import { profiles } from '../../facts/site.ts';
import type { LabScenarioData } from './lab-data.ts';

/** The gateway's name: "GKE Gateway". */
export function gatewayNameOf(s: LabScenarioData): string {
  return s.gatewayName ?? profiles.gateways.find((g) => g.id === s.gateway)?.name ?? s.gateway;
}

/** The model server's name: "vLLM". */
export function serverNameOf(s: LabScenarioData): string {
  return s.modelServerName ?? profiles.modelServers.find((m) => m.id === s.modelServer)?.name ?? s.modelServer;
}

/** A scenario's page title, distinct across scenarios: "The plan (GKE Gateway, vLLM)", "… (GKE Gateway, vLLM, on nginx)". */
export function scenarioTitle(s: LabScenarioData): string {
  return `${s.title} (${gatewayNameOf(s)}, ${serverNameOf(s)}${s.proxy === 'nginx' ? ', on nginx' : ''})`;
}
