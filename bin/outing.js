#!/usr/bin/env node
// The `outing` command. `npm install` (prepare) compiles the TypeScript sources into dist/ and
// bundles the server into dist/server/bundle/; launch.js runs the bundle (or the module tree).
import { launch } from '../dist/server/launch.js';

await launch(process.argv.slice(2));
