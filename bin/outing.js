#!/usr/bin/env node
// The `outing` command. The TypeScript sources are compiled into dist/ by `npm install` (prepare).
import { main } from '../dist/server/cli.js';

await main(process.argv.slice(2));
