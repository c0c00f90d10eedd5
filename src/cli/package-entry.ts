/** Entry of the installable package (built by scripts/build-cli.ts): run the CLI with the process's arguments. */
import { main } from './main.ts';

process.exitCode = await main(process.argv.slice(2));
