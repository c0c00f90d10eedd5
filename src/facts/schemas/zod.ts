/**
 * zod, set to build no parser code at run time. zod 4 compiles a fast parser for each object schema with
 * `new Function` unless `jitless` is set, and first probes whether it may: under the site's Content-Security-Policy
 * (no 'unsafe-eval') that probe is reported as a violation even though zod catches it. The probe runs when an object
 * schema is built, so every schema module imports zod from here, which sets the option before any is built.
 */
import { z } from 'zod';

z.config({ jitless: true });

export { z };
