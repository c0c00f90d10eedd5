/** /data/profiles.json: every gateway and model-server profile, which the generator fetches on first use. */
import { profiles } from '../../src/facts/site.ts';
import { profilesToJson } from '../../src/components/generator/profile-choices.ts';

/** The profiles as JSON, written once at build time. */
export function GET(): Response {
  return new Response(profilesToJson(profiles), { headers: { 'Content-Type': 'application/json; charset=utf-8' } });
}
